package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The extender's Netty HTTP server: per connection a {@link SlowRequestGuard} (408), the HTTP codec
 * (bad requests become 400), a {@link BoundedAggregator} (413) and the {@link ExtenderHttpHandler}.
 * Verbs run on a pool of {@value #VERB_THREADS} threads, enough for every member of several gangs
 * to wait in {@code bind} at once.
 */
public final class ExtenderServer implements AutoCloseable {
  static final int VERB_THREADS = 128;

  /** Limits of the request line and headers; kube-scheduler sends short ones. */
  private static final int MAX_INITIAL_LINE = 4096;

  private static final int MAX_HEADERS = 16 * 1024;
  private static final int MAX_CHUNK = 64 * 1024;

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ExecutorService verbs;
  private final Channel channel;

  private ExtenderServer(
      EventLoopGroup boss, EventLoopGroup workers, ExecutorService verbs, Channel channel) {
    this.boss = boss;
    this.workers = workers;
    this.verbs = verbs;
    this.channel = channel;
  }

  /**
   * Starts serving {@code extender} and {@code webhook} on {@code address} (port 0: any free port).
   */
  public static ExtenderServer start(
      Extender extender, AdmissionWebhook webhook, InetSocketAddress address)
      throws InterruptedException {
    requireNonNull(extender, "extender is null");
    requireNonNull(webhook, "webhook is null");
    requireNonNull(address, "address is null");
    EventLoopGroup boss = new NioEventLoopGroup(1);
    EventLoopGroup workers = new NioEventLoopGroup();
    ExecutorService verbs =
        Executors.newFixedThreadPool(
            VERB_THREADS,
            r -> {
              Thread t = new Thread(r, "gantry-extender-verb");
              t.setDaemon(true);
              return t;
            });
    ExtenderHttpHandler handler = new ExtenderHttpHandler(extender, webhook, verbs);
    ExtenderSettings settings = extender.settings();
    ExtenderMetrics metrics = extender.metrics();
    try {
      Channel channel =
          new ServerBootstrap()
              .group(boss, workers)
              .channel(NioServerSocketChannel.class)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(new SlowRequestGuard(settings.requestTimeout(), metrics))
                          .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, MAX_CHUNK))
                          .addLast(new BoundedAggregator(settings.maxRequestBytes(), metrics))
                          .addLast(handler);
                    }
                  })
              .bind(address)
              .sync()
              .channel();
      return new ExtenderServer(boss, workers, verbs, channel);
    } catch (InterruptedException | RuntimeException e) {
      verbs.shutdownNow();
      boss.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
      workers.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
      throw e;
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    verbs.shutdownNow();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
