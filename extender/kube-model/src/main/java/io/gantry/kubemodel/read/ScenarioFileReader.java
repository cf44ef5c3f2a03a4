package io.gantry.kubemodel.read;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the text of one scenario file. A scenario is a regular file of at most {@link
 * #MAX_FILE_BYTES} bytes in UTF-8; a device, a FIFO or a socket is refused rather than read, so
 * that {@code gantry simulate /dev/stdin} cannot wait forever.
 */
public final class ScenarioFileReader {
  /** The largest scenario file: 1 GiB, far above a written-out snapshot of a large cluster. */
  static final long MAX_FILE_BYTES = 1L << 30;

  private static final int DECODE_CHUNK_CHARS = 8192;

  private ScenarioFileReader() {}

  public static String read(Path file) throws ScenarioException {
    String name = file.toString();
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (IOException e) {
      throw new ScenarioException(name, problem(e), e);
    }
    if (attributes.isDirectory()) {
      throw new ScenarioException(name, 0, "", "is a directory, not a scenario file");
    }
    if (!attributes.isRegularFile()) {
      throw new ScenarioException(
          name, 0, "", "not a regular file (a scenario is a regular file, or a directory of them)");
    }
    checkSize(name, attributes.size());
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ScenarioException(name, problem(e), e);
    }
    // The file may have grown since its size was read.
    checkSize(name, bytes.length);
    int malformed = firstMalformedByte(bytes);
    if (malformed >= 0) {
      throw new ScenarioException(name, lineOf(bytes, malformed), "", "not valid UTF-8");
    }
    return new String(bytes, UTF_8);
  }

  private static String problem(IOException e) {
    return e instanceof NoSuchFileException
        ? IoProblem.describe(e)
        : "cannot read: " + IoProblem.describe(e);
  }

  private static void checkSize(String name, long size) throws ScenarioException {
    if (size > MAX_FILE_BYTES) {
      throw new ScenarioException(
          name,
          0,
          "",
          "is "
              + size
              + " bytes, more than the limit of "
              + MAX_FILE_BYTES
              + " bytes (1 GiB) for a scenario file");
    }
  }

  /** The offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
  private static int firstMalformedByte(byte[] bytes) {
    CharsetDecoder decoder =
        UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(DECODE_CHUNK_CHARS);
    while (true) {
      CoderResult result = decoder.decode(in, out, true);
      if (result.isError()) {
        return in.position();
      }
      if (result.isUnderflow()) {
        return -1;
      }
      out.clear();
    }
  }

  private static int lineOf(byte[] bytes, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (bytes[i] == '\n') {
        line++;
      }
    }
    return line;
  }
}
