package io.gantry.extender;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Sends raw bytes to a server on a fresh connection and reads the answer's status and body. */
final class RawHttp {
  private RawHttp() {}

  record Answer(int status, String body) {}

  static Answer send(int port, byte[] request) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request);
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      int n;
      // every error answer closes the connection, so reading to the end collects it whole
      while ((n = in.read(buf)) > 0) {
        out.write(buf, 0, n);
      }
      String text = out.toString(StandardCharsets.UTF_8);
      if (!text.startsWith("HTTP/1.1 ")) {
        return new Answer(-1, text);
      }
      int status = Integer.parseInt(text.substring(9, 12));
      int bodyAt = text.indexOf("\r\n\r\n");
      return new Answer(status, bodyAt < 0 ? "" : text.substring(bodyAt + 4));
    }
  }

  static byte[] post(String path, String body) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    return post(path, b, b.length);
  }

  static byte[] post(String path, byte[] body, int contentLength) {
    String head =
        "POST "
            + path
            + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n"
            + "Content-Length: "
            + contentLength
            + "\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[h.length + body.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, 0, out, h.length, body.length);
    return out;
  }
}
