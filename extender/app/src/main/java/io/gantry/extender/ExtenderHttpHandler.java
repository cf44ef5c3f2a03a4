package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.extender.wire.BadRequest;
import io.gantry.extender.wire.BindingArgs;
import io.gantry.extender.wire.ExtenderArgs;
import io.gantry.extender.wire.FilterResult;
import io.gantry.extender.wire.HostPriority;
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
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes whole requests: {@code POST …/filter}, {@code …/prioritize}, {@code …/preempt}, {@code
 * …/bind} (the last path segment is the verb, so any {@code urlPrefix} path works), {@code POST
 * …/admit} (the {@link AdmissionWebhook}), {@code GET /healthz} and {@code GET /metrics}. A {@code
 * filter} or {@code prioritize} whose answer needs no planning cycle is answered on the event loop;
 * every other verb runs on the {@code verbs} pool ({@code bind} may wait for the rest of a gang, a
 * plan runs an engine cycle). A request the codec could not read is answered 400 and its connection
 * closed; a body the wire codec rejects is answered 400 with the field named.
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
    String segment = path.substring(path.lastIndexOf('/') + 1);
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (request.method().equals(HttpMethod.GET)) {
      switch (segment) {
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
    Optional<Verb> named = Verb.ofPathSegment(segment);
    if (named.isEmpty()) {
      Responses.errorAndClose(
          ctx,
          HttpResponseStatus.NOT_FOUND,
          "no such verb: " + path + " (" + Verb.LIST + ")",
          metrics);
      return;
    }
    Verb verb = named.get();
    byte[] body = ByteBufUtil.getBytes(request.content());
    long start = System.nanoTime();
    Routed routed;
    try {
      routed = route(verb, body);
    } catch (BadRequest e) {
      Responses.errorAndClose(ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage(), metrics);
      return;
    } catch (RuntimeException e) {
      failed(ctx, verb, e);
      return;
    }
    if (!routed.onPool()) {
      respond(ctx, verb, routed.answer(), keepAlive, start);
      return;
    }
    try {
      verbs.execute(() -> respond(ctx, verb, routed.answer(), keepAlive, start));
    } catch (RejectedExecutionException e) {
      Responses.errorAndClose(
          ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "the extender is shutting down", metrics);
    }
  }

  /** Writes a verb's answer body. */
  private interface Answer {
    void writeTo(ByteBufOutputStream out) throws BadRequest, InterruptedException;
  }

  /** A verb's answer, and whether it must run on the pool of verb threads. */
  private record Routed(Answer answer, boolean onPool) {}

  /**
   * Routes a verb, on the network thread. A {@code filter} or {@code prioritize} is read here,
   * once: when it needs no planning cycle its answer is written here too — most requests are such
   * (a pod with a reservation, or not Gantry's), and answering them here spares two hand-offs
   * between threads; otherwise the pool plans with the arguments read here. Every other verb is
   * read and answered on the pool.
   */
  private Routed route(Verb verb, byte[] body) throws BadRequest {
    switch (verb) {
      case FILTER -> {
        ExtenderArgs args = WireCodec.extenderArgs(body);
        Optional<FilterResult> known = extender.filterIfKnown(args);
        return known.isPresent()
            ? new Routed(out -> WireCodec.filterResult(known.get(), args, out), false)
            : new Routed(out -> WireCodec.filterResult(extender.filter(args), args, out), true);
      }
      case PRIORITIZE -> {
        ExtenderArgs args = WireCodec.extenderArgs(body);
        Optional<ImmutableList<HostPriority>> known = extender.prioritizeIfKnown(args);
        return known.isPresent()
            ? new Routed(out -> WireCodec.priorities(known.get(), out), false)
            : new Routed(out -> WireCodec.priorities(extender.prioritize(args), out), true);
      }
      default -> {
        return new Routed(out -> call(verb, body, out), true);
      }
    }
  }

  /** Writes the answer and sends it, from any thread; an error is answered with its status. */
  private void respond(
      ChannelHandlerContext ctx, Verb verb, Answer answer, boolean keepAlive, long start) {
    ExtenderMetrics metrics = extender.metrics();
    // the answer is written straight into a pooled buffer, which the response then owns
    ByteBuf body = ctx.alloc().buffer();
    try {
      answer.writeTo(new ByteBufOutputStream(body));
    } catch (BadRequest e) {
      body.release();
      onLoop(
          ctx,
          () ->
              Responses.errorAndClose(
                  ctx, HttpResponseStatus.BAD_REQUEST, e.getMessage(), metrics));
      return;
    } catch (InterruptedException e) {
      body.release();
      Thread.currentThread().interrupt();
      onLoop(
          ctx,
          () ->
              Responses.errorAndClose(
                  ctx,
                  HttpResponseStatus.SERVICE_UNAVAILABLE,
                  "the extender is shutting down",
                  metrics));
      return;
    } catch (RuntimeException e) {
      body.release();
      failed(ctx, verb, e);
      return;
    }
    metrics.request(verb, java.time.Duration.ofNanos(System.nanoTime() - start));
    FullHttpResponse response = Responses.json(HttpResponseStatus.OK, body);
    onLoop(ctx, () -> answer(ctx, response, keepAlive));
  }

  /** A bug: logged, and answered 500 with the exception. */
  private void failed(ChannelHandlerContext ctx, Verb verb, RuntimeException e) {
    LOG.error("{} failed", verb.pathSegment(), e);
    onLoop(
        ctx,
        () ->
            Responses.errorAndClose(
                ctx,
                HttpResponseStatus.INTERNAL_SERVER_ERROR,
                verb.pathSegment() + " failed: " + e,
                extender.metrics()));
  }

  /** Runs {@code write} on the channel's event loop: now when already there, else queued. */
  private static void onLoop(ChannelHandlerContext ctx, Runnable write) {
    if (ctx.executor().inEventLoop()) {
      write.run();
    } else {
      ctx.executor().execute(write);
    }
  }

  /** Answers {@code preempt}, {@code bind} or {@code admit}, writing the body to {@code out}. */
  private void call(Verb verb, byte[] body, ByteBufOutputStream out)
      throws BadRequest, InterruptedException {
    switch (verb) {
      case PREEMPT -> {
        PreemptionArgs args = WireCodec.preemptionArgs(body);
        WireCodec.preemptionResult(extender.preempt(args), out);
      }
      case BIND -> {
        BindingArgs args = WireCodec.bindingArgs(body);
        BindOutcome outcome = extender.bind(args);
        // the protocol's answer names no outcome: an empty error means bound
        WireCodec.bindingResult(
            outcome instanceof BindOutcome.BindRejected r ? r.reason() : "", out);
      }
      case ADMIT -> out.buffer().writeBytes(webhook.review(body));
      case FILTER, PRIORITIZE ->
          throw new IllegalStateException(verb.pathSegment() + " is answered by route()");
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
