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
 * and {@link #writeAll} copies the literals' bytes, already JSON-escaped, into the answer in one
 * piece. An immutable list.
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
    try {
      return read(json, 0).names();
    } catch (BadRequest e) {
      throw new IllegalStateException("Jackson wrote an array of strings it cannot read back", e);
    }
  }

  /** Names read from a request, and where the array they came from ends. */
  record Read(NodeNames names, int end) {}

  /**
   * Reads the array of strings that opens at {@code json[open]} ({@code [}), checking it as a JSON
   * parser would: the structure, each string's escapes, that no control character is left
   * unescaped, and that the bytes are UTF-8. A hand-written scan, one pass with no object per name:
   * with {@code nodeCacheCapable} this array is most of every request.
   *
   * @return the names, and the index just past the closing {@code ]}
   * @throws BadRequest naming the first element that is not a string, or what is not valid JSON
   */
  static Read read(byte[] json, int open) throws BadRequest {
    int capacity = 64;
    int[] starts = new int[capacity];
    int[] ends = new int[capacity];
    int count = 0;
    int i = spaces(json, open + 1);
    if (i < json.length && json[i] == ']') {
      return new Read(new NodeNames(json, new int[0], new int[0]), i + 1);
    }
    while (true) {
      if (i >= json.length || json[i] != '"') {
        throw new BadRequest("NodeNames[" + count + "]: expected a string");
      }
      int start = i + 1;
      i = closingQuote(json, start, count);
      if (count == capacity) {
        capacity *= 2;
        starts = Arrays.copyOf(starts, capacity);
        ends = Arrays.copyOf(ends, capacity);
      }
      starts[count] = start;
      ends[count] = i;
      count++;
      i = spaces(json, i + 1);
      if (i >= json.length) {
        throw invalid(count - 1, "the array is not closed");
      }
      if (json[i] == ']') {
        return new Read(
            new NodeNames(json, Arrays.copyOf(starts, count), Arrays.copyOf(ends, count)), i + 1);
      }
      if (json[i] != ',') {
        throw invalid(count - 1, "expected ',' or ']' after it");
      }
      i = spaces(json, i + 1);
    }
  }

  /** The index of the quote that closes the string whose content starts at {@code from}. */
  private static int closingQuote(byte[] json, int from, int element) throws BadRequest {
    int i = from;
    while (i < json.length) {
      int b = json[i] & 0xFF;
      if (b == '"') {
        return i;
      } else if (b == '\\') {
        i = afterEscape(json, i, element);
      } else if (b < 0x20) {
        throw invalid(element, "control character " + b + " must be escaped");
      } else if (b >= 0x80) {
        i = afterUtf8(json, i, element);
      } else {
        i++;
      }
    }
    throw invalid(element, "the string is not closed");
  }

  /** The index after the escape sequence at {@code json[at]} ({@code \}). */
  private static int afterEscape(byte[] json, int at, int element) throws BadRequest {
    if (at + 1 >= json.length) {
      throw invalid(element, "the string is not closed");
    }
    switch (json[at + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        return at + 2;
      }
      case 'u' -> {
        for (int k = at + 2; k < at + 6; k++) {
          if (k >= json.length || Character.digit(json[k], 16) < 0) {
            throw invalid(element, "\\u must be followed by four hex digits");
          }
        }
        return at + 6;
      }
      default -> throw invalid(element, "unknown escape \\" + (char) (json[at + 1] & 0xFF));
    }
  }

  /**
   * The index after the multi-byte UTF-8 sequence that starts at {@code json[at]}, checked as RFC
   * 3629 has it (no overlong forms, no surrogates, nothing past U+10FFFF).
   */
  private static int afterUtf8(byte[] json, int at, int element) throws BadRequest {
    int lead = json[at] & 0xFF;
    int length;
    int secondMin = 0x80;
    int secondMax = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      secondMin = lead == 0xE0 ? 0xA0 : 0x80;
      secondMax = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      secondMin = lead == 0xF0 ? 0x90 : 0x80;
      secondMax = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
      throw invalid(element, "byte " + lead + " is not UTF-8");
    }
    if (at + length > json.length) {
      throw invalid(element, "a UTF-8 sequence is cut short");
    }
    for (int k = 1; k < length; k++) {
      int b = json[at + k] & 0xFF;
      int min = k == 1 ? secondMin : 0x80;
      int max = k == 1 ? secondMax : 0xBF;
      if (b < min || b > max) {
        throw invalid(element, "byte " + lead + " starts a UTF-8 sequence that is not valid");
      }
    }
    return at + length;
  }

  /** The index of the first byte at or after {@code from} that is not JSON white space. */
  private static int spaces(byte[] json, int from) {
    int i = from;
    while (i < json.length
        && (json[i] == ' ' || json[i] == '\n' || json[i] == '\r' || json[i] == '\t')) {
      i++;
    }
    return i;
  }

  private static BadRequest invalid(int element, String why) {
    return new BadRequest("request body: not valid JSON: NodeNames[" + element + "]: " + why);
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

  /**
   * Writes every name, in order, as the elements of the array {@code g} has open, copying the
   * request's bytes in one piece: the literals from the first one's content to the last one's, with
   * the commas and spaces between them, read as one raw string are exactly the elements with their
   * quotes.
   */
  void writeAll(JsonGenerator g) throws IOException {
    if (!isEmpty()) {
      g.writeRawUTF8String(json, starts[0], ends[ends.length - 1] - starts[0]);
    }
  }
}
