package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Throwables;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The extender's Netty HTTP server: per connection, with TLS configured, an SSL handler from the
 * {@link ReloadingTls} context current when the connection opens (HTTPS only), then a {@link
 * SlowRequestGuard} (408), the HTTP codec (bad requests become 400), a {@link BoundedAggregator}
 * (413) and the {@link ExtenderHttpHandler}. A {@code filter} or {@code prioritize} that needs no
 * planning cycle is answered on the event loop; other verbs run on a pool of {@value #VERB_THREADS}
 * threads, enough for every member of several gangs to wait in {@code bind} at once.
 */
public final class ExtenderServer implements AutoCloseable {
  static final int VERB_THREADS = 128;

  /** How long a stop waits for the verbs under way. */
  static final long VERBS_GRACE_SECONDS = 10;

  /** Limits of the request line and headers; kube-scheduler sends short ones. */
  private static final int MAX_INITIAL_LINE = 4096;

  private static final int MAX_HEADERS = 16 * 1024;
  private static final int MAX_CHUNK = 64 * 1024;

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ExecutorService verbs;
  private final Channel channel;
  private final Optional<ReloadingTls> tls;

  private ExtenderServer(
      EventLoopGroup boss,
      EventLoopGroup workers,
      ExecutorService verbs,
      Channel channel,
      Optional<ReloadingTls> tls) {
    this.boss = boss;
    this.workers = workers;
    this.verbs = verbs;
    this.channel = channel;
    this.tls = tls;
  }

  /**
   * Starts serving {@code extender} and {@code webhook} over plain HTTP on {@code address} (port 0:
   * any free port).
   */
  public static ExtenderServer start(
      Extender extender, AdmissionWebhook webhook, InetSocketAddress address)
      throws InterruptedException {
    return start(extender, webhook, address, Optional.empty());
  }

  /**
   * Starts serving {@code extender} and {@code webhook} on {@code address}, over HTTPS only when
   * {@code tls} is present.
   *
   * @throws IllegalArgumentException naming the file when the certificate or key cannot be loaded,
   *     or naming the port when it cannot be listened on (in use, or privileged)
   */
  public static ExtenderServer start(
      Extender extender,
      AdmissionWebhook webhook,
      InetSocketAddress address,
      Optional<TlsSettings> tlsSettings)
      throws InterruptedException {
    requireNonNull(extender, "extender is null");
    requireNonNull(webhook, "webhook is null");
    requireNonNull(address, "address is null");
    requireNonNull(tlsSettings, "tlsSettings is null");
    ExtenderMetrics metrics = extender.metrics();
    // loaded before any thread starts, so a bad file fails start-up with nothing to clean up
    Optional<ReloadingTls> tls = tlsSettings.map(s -> ReloadingTls.start(s, metrics));
    ExtenderSettings settings = extender.settings();
    EventLoopGroup boss = new NioEventLoopGroup(1);
    EventLoopGroup workers = new NioEventLoopGroup(settings.networkThreadCount());
    ExecutorService verbs =
        Executors.newFixedThreadPool(
            VERB_THREADS,
            r -> {
              Thread t = new Thread(r, "gantry-extender-verb");
              t.setDaemon(true);
              return t;
            });
    ExtenderHttpHandler handler = new ExtenderHttpHandler(extender, webhook, verbs);
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
                      tls.ifPresent(t -> ch.pipeline().addLast(t.current().newHandler(ch.alloc())));
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
      return new ExtenderServer(boss, workers, verbs, channel, tls);
    } catch (Exception e) {
      // Netty's bind throws the socket's checked exception undeclared: Exception is the only catch
      tls.ifPresent(ReloadingTls::close);
      verbs.shutdownNow();
      boss.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
      workers.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
      if (e instanceof SocketException) {
        throw new IllegalArgumentException(cannotListen(address, (SocketException) e), e);
      }
      Throwables.throwIfInstanceOf(e, InterruptedException.class);
      Throwables.throwIfUnchecked(e);
      throw new IllegalStateException(e);
    }
  }

  /** "cannot listen on port 8080: address already in use", without the exception's class. */
  static String cannotListen(InetSocketAddress address, SocketException e) {
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
    return "cannot listen on port "
        + address.getPort()
        + ": "
        + why.toLowerCase(Locale.ROOT)
        + (e instanceof BindException && why.contains("in use")
            ? " (another process holds it; choose another with --port)"
            : "");
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    tls.ifPresent(ReloadingTls::close);
    // no new connections; the verbs under way (a gang's binds waiting for each other among them)
    // finish and are answered before the event loops stop
    verbs.shutdown();
    try {
      if (!verbs.awaitTermination(VERBS_GRACE_SECONDS, TimeUnit.SECONDS)) {
        verbs.shutdownNow();
      }
    } catch (InterruptedException e) {
      verbs.shutdownNow();
      Thread.currentThread().interrupt();
    }
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
