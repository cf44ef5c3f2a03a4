package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The benchmark's caller: a minimal blocking HTTP/1.1 client on one keep-alive {@link Socket}, lean
 * as kube-scheduler's Go client is, so that {@link ExtenderBench} measures the server rather than a
 * heavyweight client sharing its cores. It sends pre-encoded {@code POST}s and reads the status
 * line, the headers and a {@code Content-Length} body (every answer the extender's server writes
 * has one) into a buffer it reuses. An answer other than 200, or one it cannot read, is an {@link
 * IOException} that says what came back. Not thread-safe: one caller per thread.
 */
final class KeepAliveCaller implements AutoCloseable {
  /** Large enough for a request with 5,000 node names in one write. */
  private static final int SEND_BUFFER_BYTES = 256 * 1024;

  private static final byte[] CONTENT_LENGTH =
      "content-length:".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TRANSFER_ENCODING =
      "transfer-encoding:".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CONNECTION_CLOSE =
      "connection: close".getBytes(StandardCharsets.US_ASCII);

  /**
   * A {@code POST} encoded once: the request line, headers and the start of the body in {@code
   * head}, then {@code shared} (the same bytes in many requests, such as a node-name array), then
   * {@code tail}.
   */
  static final class Post {
    private final String path;
    private final byte[] head;
    private final byte[] shared;
    private final byte[] tail;

    private Post(String path, byte[] head, byte[] shared, byte[] tail) {
      this.path = path;
      this.head = head;
      this.shared = shared;
      this.tail = tail;
    }

    /** {@code POST path} with the JSON body {@code bodyStart + shared + bodyEnd}. */
    static Post json(String path, String bodyStart, byte[] shared, String bodyEnd) {
      requireNonNull(shared, "shared is null");
      byte[] start = bodyStart.getBytes(StandardCharsets.UTF_8);
      byte[] end = bodyEnd.getBytes(StandardCharsets.UTF_8);
      String headers =
          "POST "
              + path
              + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              + "Content-Length: "
              + (start.length + shared.length + end.length)
              + "\r\n\r\n";
      byte[] h = headers.getBytes(StandardCharsets.US_ASCII);
      byte[] head = Arrays.copyOf(h, h.length + start.length);
      System.arraycopy(start, 0, head, h.length, start.length);
      return new Post(path, head, shared, end);
    }

    String path() {
      return path;
    }
  }

  private final InetSocketAddress server;
  private Socket socket;
  private OutputStream out;
  private InputStream in;

  /** The answer being read: {@code [0, filled)} has arrived; it grows to the largest answer. */
  private byte[] buffer = new byte[64 * 1024];

  private int filled;
  private int bodyStart;
  private int bodyLength;

  KeepAliveCaller(InetSocketAddress server) {
    this.server = requireNonNull(server, "server is null");
  }

  /**
   * Sends {@code post} and reads its answer, opening the connection first when none is open.
   *
   * @return the answer body's length in bytes; {@link #body} decodes it
   * @throws IOException when the answer is not 200 (with its status and body), or cannot be read
   */
  int call(Post post) throws IOException {
    if (socket == null) {
      connect();
    }
    out.write(post.head);
    out.write(post.shared);
    out.write(post.tail);
    out.flush();
    boolean close;
    try {
      close = readAnswer(post.path);
    } catch (IOException e) {
      close();
      throw e;
    }
    if (close) {
      close();
    }
    return bodyLength;
  }

  /** The body of the last answer. */
  String body() {
    return text(bodyStart, bodyStart + bodyLength);
  }

  private void connect() throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(server, 5_000);
      s.setSoTimeout(30_000);
      out = new BufferedOutputStream(s.getOutputStream(), SEND_BUFFER_BYTES);
      in = s.getInputStream();
    } catch (IOException e) {
      s.close();
      throw e;
    }
    socket = s;
    filled = 0;
  }

  /**
   * Reads one answer into {@link #buffer}: the head up to its blank line, then the body its {@code
   * Content-Length} names.
   *
   * @return whether the server closes the connection after it
   */
  private boolean readAnswer(String path) throws IOException {
    filled = 0;
    int headEnd;
    while ((headEnd = blankLine()) < 0) {
      fill(path);
    }
    // "HTTP/1.1 200 ..."
    if (headEnd < 12 || !startsWith(0, "HTTP/1.")) {
      throw new IOException(
          "POST "
              + path
              + ": the answer does not start with an HTTP/1.x status line: "
              + text(0, Math.min(filled, 80)));
    }
    int status = digits(9, 12, path);
    long contentLength = -1;
    boolean close = false;
    for (int line = lineEnd(0) + 2; line < headEnd; line = lineEnd(line) + 2) {
      if (headerIs(line, TRANSFER_ENCODING)) {
        throw new IOException(
            "POST "
                + path
                + ": the answer has "
                + text(line, lineEnd(line))
                + "; this caller reads Content-Length bodies only");
      }
      if (headerIs(line, CONTENT_LENGTH)) {
        contentLength = digits(skipSpaces(line + CONTENT_LENGTH.length), lineEnd(line), path);
      }
      close |= headerIs(line, CONNECTION_CLOSE);
    }
    if (contentLength < 0) {
      throw new IOException("POST " + path + ": the answer has no Content-Length header");
    }
    bodyStart = headEnd + 4;
    bodyLength = Math.toIntExact(contentLength);
    while (filled < bodyStart + bodyLength) {
      fill(path);
    }
    if (status != 200) {
      throw new IOException(
          "POST " + path + " answered " + status + ": " + text(bodyStart, bodyStart + bodyLength));
    }
    return close;
  }

  /** Reads more bytes, growing the buffer when it is full. */
  private void fill(String path) throws IOException {
    if (filled == buffer.length) {
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
    }
    int n = in.read(buffer, filled, buffer.length - filled);
    if (n < 0) {
      throw new IOException(
          "POST "
              + path
              + ": the server closed the connection after "
              + filled
              + " bytes of its answer");
    }
    filled += n;
  }

  /** Where {@code \r\n\r\n} starts among the bytes read, or -1. */
  private int blankLine() {
    for (int i = 0; i + 3 < filled; i++) {
      if (buffer[i] == '\r'
          && buffer[i + 1] == '\n'
          && buffer[i + 2] == '\r'
          && buffer[i + 3] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private int lineEnd(int from) {
    int i = from;
    while (buffer[i] != '\r') {
      i++;
    }
    return i;
  }

  private int skipSpaces(int from) {
    int i = from;
    while (buffer[i] == ' ' || buffer[i] == '\t') {
      i++;
    }
    return i;
  }

  /** Whether the header line at {@code line} starts with {@code lowerCase}, ignoring case. */
  private boolean headerIs(int line, byte[] lowerCase) {
    for (int i = 0; i < lowerCase.length; i++) {
      byte b = buffer[line + i];
      if ((b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b) != lowerCase[i]) {
        return false;
      }
    }
    return true;
  }

  private boolean startsWith(int at, String ascii) {
    for (int i = 0; i < ascii.length(); i++) {
      if (buffer[at + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int digits(int from, int to, String path) throws IOException {
    if (from >= to) {
      throw new IOException("POST " + path + ": expected a number in the answer's head");
    }
    int value = 0;
    for (int i = from; i < to; i++) {
      int d = buffer[i] - '0';
      if (d < 0 || d > 9) {
        throw new IOException(
            "POST " + path + ": expected a number in the answer's head, got " + text(from, to));
      }
      value = Math.addExact(Math.multiplyExact(value, 10), d);
    }
    return value;
  }

  private String text(int from, int to) {
    return new String(buffer, from, to - from, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    if (socket != null) {
      Socket s = socket;
      socket = null;
      s.close();
    }
  }
}
