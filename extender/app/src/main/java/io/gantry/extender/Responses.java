package io.gantry.extender;

import io.gantry.extender.wire.WireCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** The HTTP answers the extender's server writes. */
final class Responses {
  private Responses() {}

  /** A JSON answer whose body is {@code body}, which the response now owns. */
  static FullHttpResponse json(HttpResponseStatus status, ByteBuf body) {
    return response(status, body, HttpHeaderValues.APPLICATION_JSON.toString());
  }

  static FullHttpResponse text(HttpResponseStatus status, String body) {
    return response(
        status,
        Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)),
        "text/plain; charset=utf-8");
  }

  private static FullHttpResponse response(HttpResponseStatus status, ByteBuf body, String type) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    return r;
  }

  /** A JSON error answer ({@code {"Error": message}}) after which the connection is closed. */
  static void errorAndClose(
      ChannelHandlerContext ctx, HttpResponseStatus status, String message, ExtenderMetrics m) {
    m.error(status.code());
    FullHttpResponse r = json(status, Unpooled.wrappedBuffer(WireCodec.error(message)));
    r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
  }

  /**
   * The same error as raw bytes, for a handler that sits below the HTTP codec (it cannot write
   * response objects).
   */
  static byte[] rawErrorAndClose(HttpResponseStatus status, String message) {
    byte[] body = WireCodec.error(message);
    String head =
        "HTTP/1.1 "
            + status
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[h.length + body.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, 0, out, h.length, body.length);
    return out;
  }
}
