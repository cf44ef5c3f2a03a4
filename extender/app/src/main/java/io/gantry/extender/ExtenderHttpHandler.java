package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.gantry.extender.wire.BadRequest;
import io.gantry.extender.wire.BindingArgs;
import io.gantry.extender.wire.ExtenderArgs;
import io.gantry.extender.wire.PreemptionArgs;
import io.gantry.extender.wire.WireCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes whole requests: {@code POST …/filter}, {@code …/prioritize}, {@code …/preempt}, {@code
 * …/bind} (the last path segment is the verb, so any {@code urlPrefix} path works), {@code POST
 * …/admit} (the {@link AdmissionWebhook}), {@code GET /healthz} and {@code GET /metrics}. Verbs run
 * on the {@code verbs} pool, never on the event loop ({@code bind} may wait for the rest of a
 * gang). A request the codec could not read is answered 400 and its connection closed; a body the
 * wire codec rejects is answered 400 with the field named.
 */
@ChannelHandler.Sharable
final class ExtenderHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(ExtenderHttpHandler.class);

  private final Extender extender;
  private final AdmissionWebhook webhook;
  private final ExecutorService verbs;

  ExtenderHttpHandler(Extender extender, AdmissionWebhook webhook, ExecutorService verbs) {
    this.extender = requireNonNull(extender, "extender is null");
    this.webhook = requireNonNull(webhook, "webhook is null");
    this.verbs = requireNonNull(verbs, "verbs is null");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    SlowRequestGuard guard = ctx.pipeline().get(SlowRequestGuard.class);
    guard.requestComplete();
    ExtenderMetrics metrics = extender.metrics();
    if (request.decoderResult().isFailure()) {
      Responses.errorAndClose(
          ctx,
          HttpResponseStatus.BAD_REQUEST,
          "malformed HTTP request: " + request.decoderResult().cause().getMessage(),
          metrics);
      return;
    }
    String path = request.uri();
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    String verb = path.substring(path.lastIndexOf('/') + 1);
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (request.method().equals(HttpMethod.GET)) {
      switch (verb) {
        case "healthz" -> answer(ctx, Responses.text(HttpResponseStatus.OK, "ok\n"), keepAlive);
        case "metrics" ->
            answer(ctx, Responses.text(HttpResponseStatus.OK, metrics.scrape()), keepAlive);
        default ->
            Responses.errorAndClose(
                ctx, HttpResponseStatus.NOT_FOUND, "no such path: " + path, metrics);
      }
      return;
    }
    if (!request.method().equals(HttpMethod.POST)) {
      Responses.errorAndClose(
          ctx,
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          "method " + request.method() + " not allowed; the extender's verbs take POST",
          metrics);
      return;
    }
    if (!Verb.NAMES.contains(verb)) {
      Responses.errorAndClose(
          ctx,
          HttpResponseStatus.NOT_FOUND,
          "no such verb: " + path + " (filter, prioritize, preempt, bind, admit)",
          metrics);
      return;
    }
    byte[] body = ByteBufUtil.getBytes(request.content());
    long start = System.nanoTime();
    try {
      verbs.execute(() -> run(ctx, verb, body, keepAlive, start));
    } catch (RejectedExecutionException e) {
      Responses.errorAndClose(
          ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "the extender is shutting down", metrics);
    }
  }

  private void run(
      ChannelHandlerContext ctx, String verb, byte[] body, boolean keepAlive, long start) {
    ExtenderMetrics metrics = extender.metrics();
    // the answer is written straight into a pooled buffer, which the response then owns
    ByteBuf answer = ctx.alloc().buffer();
    try {
      call(verb, body, new ByteBufOutputStream(answer));
    } catch (BadRequest e) {
      answer.release();
      ctx.executor()
          .execute(
              () ->
                  Responses.errorAndClose(
                      ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage(), metrics));
      return;
    } catch (InterruptedException e) {
      answer.release();
      Thread.currentThread().interrupt();
      ctx.executor()
          .execute(
              () ->
                  Responses.errorAndClose(
                      ctx,
                      HttpResponseStatus.SERVICE_UNAVAILABLE,
                      "the extender is shutting down",
                      metrics));
      return;
    } catch (RuntimeException e) {
      answer.release();
      LOG.error("{} failed", verb, e);
      ctx.executor()
          .execute(
              () ->
                  Responses.errorAndClose(
                      ctx,
                      HttpResponseStatus.INTERNAL_SERVER_ERROR,
                      verb + " failed: " + e,
                      metrics));
      return;
    }
    metrics.request(verb, java.time.Duration.ofNanos(System.nanoTime() - start));
    FullHttpResponse response = Responses.json(HttpResponseStatus.OK, answer);
    ctx.executor().execute(() -> answer(ctx, response, keepAlive));
  }

  /** Answers the verb, writing the answer's body to {@code out}. */
  private void call(String verb, byte[] body, ByteBufOutputStream out)
      throws BadRequest, InterruptedException {
    switch (verb) {
      case "filter" -> {
        ExtenderArgs args = WireCodec.extenderArgs(body);
        WireCodec.filterResult(extender.filter(args), args, out);
      }
      case "prioritize" ->
          WireCodec.priorities(extender.prioritize(WireCodec.extenderArgs(body)), out);
      case "preempt" -> {
        PreemptionArgs args = WireCodec.preemptionArgs(body);
        WireCodec.preemptionResult(extender.preempt(args), out);
      }
      case "bind" -> {
        BindingArgs args = WireCodec.bindingArgs(body);
        WireCodec.bindingResult(extender.bind(args), out);
      }
      case "admit" -> out.buffer().writeBytes(webhook.review(body));
      default -> throw new IllegalStateException("no such verb " + verb);
    }
  }

  private static void answer(
      ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
    SlowRequestGuard guard = ctx.pipeline().get(SlowRequestGuard.class);
    if (guard != null) {
      guard.answered();
    }
    if (keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } else {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection {} failed", ctx.channel().remoteAddress(), cause);
    var unused = ctx.close();
  }
}
