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

  /**
   * Where each literal's token (its opening quote) lies in {@link #json}, then where the token
   * after the last one ({@code ]}) lies; the array may be longer than that.
   */
  private final int[] tokens;

  private final int size;

  private NodeNames(byte[] json, int[] tokens, int size) {
    this.json = json;
    this.tokens = tokens;
    this.size = size;
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
    int[] tokens = new int[16];
    int count = 0;
    for (JsonToken t = p.nextToken(); ; t = p.nextToken()) {
      int at = Math.toIntExact(p.currentTokenLocation().getByteOffset());
      if (count == tokens.length) {
        tokens = Arrays.copyOf(tokens, grownCapacity(json.length, tokens[0], at, count));
      }
      tokens[count] = at;
      if (t == JsonToken.END_ARRAY) {
        return new NodeNames(json, tokens, count);
      }
      if (t != JsonToken.VALUE_STRING) {
        throw new BadRequest("NodeNames[" + count + "]: expected a string");
      }
      count++;
    }
  }

  /**
   * A request holds thousands of names of much the same length: the array grows once, to what the
   * names read so far project over the rest of the input, and at least doubles, so names of uneven
   * length still cost amortised constant time each.
   */
  private static int grownCapacity(int inputBytes, int first, int at, int count) {
    long bytesPerName = Math.max(1, (at - first) / count);
    long projected = count + (inputBytes - at) / bytesPerName + 1;
    return Math.toIntExact(Math.min(Integer.MAX_VALUE - 8, Math.max(2L * count, projected)));
  }

  /** Where the content of literal {@code index} (inside its quotes) starts. */
  private int start(int index) {
    return tokens[index] + 1;
  }

  /**
   * Where the content of literal {@code index} ends: at its closing quote, which the parser
   * accepted, so only spaces and one comma lie between it and the next token.
   */
  private int end(int index) {
    int i = tokens[index + 1] - 1;
    while (json[i] != '"') {
      i--;
    }
    return i;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public String get(int index) {
    int start = start(index);
    int end = end(index);
    int length = end - start;
    if (!escaped(start, end)) {
      return new String(json, start, length, StandardCharsets.UTF_8);
    }
    // the literal with its quotes, read back by a parser that knows JSON's escapes
    try (JsonParser p = JSON.createParser(json, start - 1, length + 2)) {
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw new IllegalStateException("node name " + index + " is not a JSON string");
      }
      return p.getText();
    } catch (IOException e) {
      throw new UncheckedIOException("node name " + index + " was checked when it was read", e);
    }
  }

  /**
   * Whether the literal's content in {@code [start, end)} holds an escape, so its bytes are not the
   * name's UTF-8 bytes.
   */
  private boolean escaped(int start, int end) {
    for (int i = start; i < end; i++) {
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
      for (int i = 0; i < size; i++) {
        if (Arrays.equals(json, start(i), end(i), wanted, 0, wanted.length)) {
          return true;
        }
      }
    }
    for (int i = 0; i < size; i++) {
      if (escaped(start(i), end(i)) && get(i).equals(s)) {
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
    int start = start(index);
    g.writeRawUTF8String(json, start, end(index) - start);
  }
}
