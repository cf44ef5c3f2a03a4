package io.gantry.extender;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;

/** Collects a request body up to {@code maxBytes}; a larger one gets a JSON 413 and a close. */
final class BoundedAggregator extends HttpObjectAggregator {
  private final int maxBytes;
  private final ExtenderMetrics metrics;

  BoundedAggregator(int maxBytes, ExtenderMetrics metrics) {
    super(maxBytes);
    this.maxBytes = maxBytes;
    this.metrics = metrics;
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    SlowRequestGuard guard = ctx.pipeline().get(SlowRequestGuard.class);
    if (guard != null) {
      guard.requestComplete();
    }
    Responses.errorAndClose(
        ctx,
        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
        "request body is larger than the limit of " + maxBytes + " bytes",
        metrics);
  }
}
