package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
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

  /** Whether a literal holds an escape, so its bytes are not the name's UTF-8 bytes. */
  private final boolean[] escaped;

  private NodeNames(byte[] json, int[] starts, int[] ends, boolean[] escaped) {
    this.json = json;
    this.starts = starts;
    this.ends = ends;
    this.escaped = escaped;
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
      return scan(json, 0, json.length - 1);
    } catch (BadRequest e) {
      throw new IllegalStateException("Jackson wrote an array of strings it cannot read back", e);
    }
  }

  /**
   * The names of the JSON array that {@code json} holds from {@code open} (its {@code [}) to {@code
   * close} (its {@code ]}). The array must already be valid JSON (the caller's parser skipped it),
   * so only its elements' types are checked here.
   *
   * @throws BadRequest naming the first element that is not a string, or one that is not UTF-8
   */
  static NodeNames scan(byte[] json, int open, int close) throws BadRequest {
    int capacity = 16;
    int[] starts = new int[capacity];
    int[] ends = new int[capacity];
    boolean[] escaped = new boolean[capacity];
    int count = 0;
    int i = skipSpace(json, open + 1, close);
    while (i < close) {
      if (json[i] != '"') {
        throw new BadRequest("NodeNames[" + count + "]: expected a string");
      }
      int start = i + 1;
      boolean escapes = false;
      boolean ascii = true;
      int j = start;
      for (; j < close && json[j] != '"'; j++) {
        if (json[j] == '\\') {
          escapes = true;
          j++; // the escaped character, which may be a quote
        } else if (json[j] < 0) {
          ascii = false;
        }
      }
      if (j >= close) {
        throw new BadRequest("NodeNames[" + count + "]: the string does not end");
      }
      if (!ascii) {
        checkUtf8(json, start, j, count);
      }
      if (count == capacity) {
        capacity *= 2;
        starts = Arrays.copyOf(starts, capacity);
        ends = Arrays.copyOf(ends, capacity);
        escaped = Arrays.copyOf(escaped, capacity);
      }
      starts[count] = start;
      ends[count] = j;
      escaped[count] = escapes;
      count++;
      i = skipSpace(json, j + 1, close);
      if (i < close) {
        // the parser checked the array: what follows an element is a comma
        i = skipSpace(json, i + 1, close);
      }
    }
    return new NodeNames(
        json,
        Arrays.copyOf(starts, count),
        Arrays.copyOf(ends, count),
        Arrays.copyOf(escaped, count));
  }

  private static int skipSpace(byte[] json, int from, int to) {
    int i = from;
    while (i < to && (json[i] == ' ' || json[i] == '\n' || json[i] == '\r' || json[i] == '\t')) {
      i++;
    }
    return i;
  }

  private static void checkUtf8(byte[] json, int start, int end, int index) throws BadRequest {
    try {
      var unused =
          StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(json, start, end - start));
    } catch (CharacterCodingException e) {
      throw new BadRequest("NodeNames[" + index + "]: not valid UTF-8");
    }
  }

  @Override
  public int size() {
    return starts.length;
  }

  @Override
  public String get(int index) {
    if (!escaped[index]) {
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

  /** Whether {@code name} is one of the names, compared without decoding the others. */
  @Override
  public boolean contains(Object name) {
    return name instanceof String s && indexOf(s) >= 0;
  }

  @Override
  public int indexOf(Object name) {
    if (!(name instanceof String s)) {
      return -1;
    }
    byte[] wanted = s.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < starts.length; i++) {
      boolean same =
          escaped[i]
              ? get(i).equals(s)
              : Arrays.equals(json, starts[i], ends[i], wanted, 0, wanted.length);
      if (same) {
        return i;
      }
    }
    return -1;
  }

  /** Writes the name at {@code index} as a JSON string value, copying the request's bytes. */
  void write(JsonGenerator g, int index) throws IOException {
    g.writeRawUTF8String(json, starts[index], ends[index] - starts[index]);
  }
}
