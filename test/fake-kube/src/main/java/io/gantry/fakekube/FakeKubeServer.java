package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process fake Kubernetes API server on an ephemeral loopback port, reached over real HTTP by
 * any client (client-java, the JDK HttpClient, curl). Start one per test class or test:
 *
 * <pre>{@code
 * try (FakeKubeServer kube = FakeKubeServer.start()) {
 *   ApiClient client = new ApiClient().setBasePath(kube.url());
 *   ...
 *   kube.store().get(ResourceKinds.PODS, "default", "p1");
 * }
 * }</pre>
 *
 * <p>Test hooks: {@link #breakWatches()}, {@link #closeWatches()}, {@link #compact()}, {@link
 * #sendBookmarks()}, {@link #requests()}.
 */
public final class FakeKubeServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FakeKubeServer.class);

  private final HttpServer http;
  private final ExecutorService executor;
  private final ObjectStore objects;
  private final ResourceStore store;
  private final ResourceRegistry registry;
  private final WatchHub watches;
  private final RequestCounts requests;
  private final ApiAccessLog accesses;
  private final Refusals refusals = new Refusals();

  private FakeKubeServer(FakeKubeConfig config) throws IOException {
    this.registry = new ResourceRegistry();
    this.objects = new ObjectStore(config.historySize());
    this.store = new ResourceStore(objects, registry, config.clock());
    this.watches = new WatchHub();
    this.requests = new RequestCounts();
    this.accesses = new ApiAccessLog();
    this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    this.executor = Executors.newCachedThreadPool(daemonThreads());
    String address = "127.0.0.1:" + http.getAddress().getPort();
    ResourceHandler resources = new ResourceHandler(store, objects, watches, config);
    http.createContext(
        "/",
        new ApiHandler(
            registry, resources, new Discovery(registry, address), requests, accesses, refusals));
    http.setExecutor(executor);
    http.start();
    log.info("fake Kubernetes API server listening on {}", url());
  }

  /** Starts a server with {@link FakeKubeConfig#defaults()}. */
  public static FakeKubeServer start() {
    return start(FakeKubeConfig.defaults());
  }

  public static FakeKubeServer start(FakeKubeConfig config) {
    requireNonNull(config, "config is null");
    try {
      return new FakeKubeServer(config);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the fake API server", e);
    }
  }

  /** {@code http://127.0.0.1:<port>}, the base path for clients. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  public int port() {
    return http.getAddress().getPort();
  }

  /** Direct access to the objects, with the same semantics as the HTTP API. */
  public ResourceStore store() {
    return store;
  }

  /** The known kinds; register a CRD here to fix its kind name and scope before first use. */
  public ResourceRegistry registry() {
    return registry;
  }

  /** Requests answered so far, by verb and path. */
  public RequestCounts requests() {
    return requests;
  }

  /** Requests to answer with a failure, for tests of failure paths. */
  public Refusals refusals() {
    return refusals;
  }

  /** Every distinct access so far, by client, in RBAC's terms. */
  public ApiAccessLog accesses() {
    return accesses;
  }

  /** Watches open now. */
  public int openWatches() {
    return watches.size();
  }

  /**
   * Drops every open watch connection without finishing its chunked body, as a network failure or a
   * crashed API server would; returns how many. Clients see an I/O error mid-stream.
   */
  public int breakWatches() {
    return watches.endAll(true);
  }

  /**
   * Ends every open watch cleanly (final chunk sent), as the API server does when a watch's timeout
   * passes or it shuts down gracefully; returns how many. Clients see the stream end.
   */
  public int closeWatches() {
    return watches.endAll(false);
  }

  /**
   * Compacts the history up to the current resourceVersion, as etcd compaction does: a watch from
   * any older resourceVersion is answered with a 410 Expired ERROR event.
   */
  public void compact() {
    objects.compact();
  }

  /** Sends a BOOKMARK now on every open watch that allowed bookmarks; returns how many watches. */
  public int sendBookmarks() {
    return watches.bookmarkAll();
  }

  @Override
  public void close() {
    watches.endAll(false);
    http.stop(0);
    executor.shutdownNow();
    log.info("fake Kubernetes API server on port {} stopped", port());
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "fake-kube-http-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
