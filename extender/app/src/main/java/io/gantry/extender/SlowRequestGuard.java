package io.gantry.extender;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Answers 408 and closes the connection when a client takes longer than {@code timeout} from the
 * first byte of a request to its last: a slow or truncated request cannot hold a connection (or its
 * buffers) forever. It sits below the HTTP codec, so it sees bytes as they arrive; the request
 * handler disarms it once a whole request is in. Runs on the channel's event loop only.
 */
final class SlowRequestGuard extends ChannelDuplexHandler {
  private final Duration timeout;
  private final ExtenderMetrics metrics;
  private ScheduledFuture<?> timer;
  private boolean waitingForAnswer;

  SlowRequestGuard(Duration timeout, ExtenderMetrics metrics) {
    this.timeout = timeout;
    this.metrics = metrics;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (timer == null && !waitingForAnswer && msg instanceof ByteBuf b && b.isReadable()) {
      timer = ctx.executor().schedule(() -> expired(ctx), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
    super.channelRead(ctx, msg);
  }

  /** A whole request is in: stop timing until its answer is written. */
  void requestComplete() {
    waitingForAnswer = true;
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /** The answer is written: time the next request from its first byte. */
  void answered() {
    waitingForAnswer = false;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
    super.channelInactive(ctx);
  }

  private void expired(ChannelHandlerContext ctx) {
    timer = null;
    if (!ctx.channel().isActive()) {
      return;
    }
    metrics.error(HttpResponseStatus.REQUEST_TIMEOUT.code());
    ctx.writeAndFlush(
            Unpooled.wrappedBuffer(
                Responses.rawErrorAndClose(
                    HttpResponseStatus.REQUEST_TIMEOUT,
                    "request not received whole within " + timeout.toMillis() + "ms")))
        .addListener(ChannelFutureListener.CLOSE);
  }
}
