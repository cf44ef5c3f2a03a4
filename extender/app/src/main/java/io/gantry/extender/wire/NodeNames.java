package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * Node names as a request sent them: the JSON array's bytes and where each string literal lies in
 * them. With {@code nodeCacheCapable} a request is mostly thousands of names, and most answers
 * either echo them all (a pod Gantry does not manage) or look for one (a pod with a reservation):
 * neither needs a {@link String} per name, so a name is decoded only when {@link #get} asks for it,
 * and {@link #write} copies the literal's bytes, already JSON-escaped, into the answer. An
 * immutable list.
 */
public final class NodeNames extends AbstractList<String> implements RandomAccess {
  private static final JsonFactory JSON = new JsonFactory();

  /** No names. */
  public static final NodeNames EMPTY = of(List.of());

  private final byte[] json;

  /** Where each literal's content (inside its quotes) starts and ends in {@link #json}. */
  private final int[] starts;

  private final int[] ends;

  private NodeNames(byte[] json, int[] starts, int[] ends) {
    this.json = json;
    this.starts = starts;
    this.ends = ends;
  }

  /** The names, in order. */
  public static NodeNames of(List<String> names) {
    requireNonNull(names, "names is null");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (String n : names) {
        g.writeString(requireNonNull(n, "a node name is null"));
      }
      g.writeEndArray();
    } catch (IOException e) {
      // writing to memory fails only on a bug
      throw new UncheckedIOException(e);
    }
    byte[] json = out.toByteArray();
    try (JsonParser p = JSON.createParser(json)) {
      p.nextToken();
      return read(p, json);
    } catch (IOException | BadRequest e) {
      throw new IllegalStateException("Jackson wrote an array of strings it cannot read back", e);
    }
  }

  /**
   * Reads the array at the parser's current token ({@code [}) from {@code json}, the parser's
   * input. The parser checks the JSON (escapes, UTF-8, structure) as it skips each string without
   * decoding it; where each literal lies comes from the token offsets.
   *
   * @throws BadRequest naming the first element that is not a string
   * @throws IOException when the parser finds the JSON invalid
   */
  static NodeNames read(JsonParser p, byte[] json) throws IOException, BadRequest {
    int capacity = 64;
    int[] starts = new int[capacity];
    int[] ends = new int[capacity];
    int count = 0;
    for (JsonToken t = p.nextToken(); ; t = p.nextToken()) {
      int at = Math.toIntExact(p.currentTokenLocation().getByteOffset());
      if (count > 0 && ends[count - 1] < 0) {
        ends[count - 1] = closingQuote(json, at);
      }
      if (t == JsonToken.END_ARRAY) {
        break;
      }
      if (t != JsonToken.VALUE_STRING) {
        throw new BadRequest("NodeNames[" + count + "]: expected a string");
      }
      if (count == capacity) {
        capacity *= 2;
        starts = Arrays.copyOf(starts, capacity);
        ends = Arrays.copyOf(ends, capacity);
      }
      starts[count] = at + 1;
      ends[count] = -1;
      count++;
    }
    return new NodeNames(json, Arrays.copyOf(starts, count), Arrays.copyOf(ends, count));
  }

  /**
   * The closing quote of the literal before the token at {@code next}: the parser accepted the
   * array, so only spaces and one comma lie between them.
   */
  private static int closingQuote(byte[] json, int next) {
    int i = next - 1;
    while (json[i] != '"') {
      i--;
    }
    return i;
  }

  @Override
  public int size() {
    return starts.length;
  }

  @Override
  public String get(int index) {
    if (!escaped(index)) {
      return new String(json, starts[index], ends[index] - starts[index], StandardCharsets.UTF_8);
    }
    // the literal with its quotes, read back by a parser that knows JSON's escapes
    try (JsonParser p =
        JSON.createParser(json, starts[index] - 1, ends[index] - starts[index] + 2)) {
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw new IllegalStateException("node name " + index + " is not a JSON string");
      }
      return p.getText();
    } catch (IOException e) {
      throw new UncheckedIOException("node name " + index + " was checked when it was read", e);
    }
  }

  /** Whether the literal holds an escape, so its bytes are not the name's UTF-8 bytes. */
  private boolean escaped(int index) {
    for (int i = starts[index]; i < ends[index]; i++) {
      if (json[i] == '\\') {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code name} is one of the names. A name with no character JSON must escape is looked
   * for as its UTF-8 bytes among the literals; only literals that hold escapes are decoded, and
   * only when that finds nothing.
   */
  @Override
  public boolean contains(Object name) {
    if (!(name instanceof String s)) {
      return false;
    }
    byte[] wanted = s.getBytes(StandardCharsets.UTF_8);
    if (!needsEscapes(wanted)) {
      for (int i = 0; i < starts.length; i++) {
        if (Arrays.equals(json, starts[i], ends[i], wanted, 0, wanted.length)) {
          return true;
        }
      }
    }
    for (int i = 0; i < starts.length; i++) {
      if (escaped(i) && get(i).equals(s)) {
        return true;
      }
    }
    return false;
  }

  private static boolean needsEscapes(byte[] utf8) {
    for (byte b : utf8) {
      if (b == '"' || b == '\\' || (b >= 0 && b < 0x20)) {
        return true;
      }
    }
    return false;
  }

  /** Writes the name at {@code index} as a JSON string value, copying the request's bytes. */
  void write(JsonGenerator g, int index) throws IOException {
    g.writeRawUTF8String(json, starts[index], ends[index] - starts[index]);
  }
}
