package io.gantry.scheduler.kube.ops;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gantry.kubemodel.explain.ExplainService;
import io.gantry.scheduler.kube.KubeScheduler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's HTTP endpoints: {@code GET /metrics} (Prometheus text), {@code /healthz} (the
 * loop is alive), {@code /readyz} (the caches have synced), {@code /snapshot} (the live state as a
 * scenario file for {@code gantry simulate}), and the explanations of {@link ExplainService}:
 * {@code /explain?namespace=&name=&output=text|json}, {@code /queues?output=} and KAI's {@code
 * /get-job-order}. Anything else is 404; a method other than GET is 405.
 */
public final class OpsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);

  private final HttpServer server;
  private final ExecutorService threads;

  private OpsServer(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  public static OpsServer start(KubeScheduler scheduler, InetSocketAddress address)
      throws IOException {
    requireNonNull(scheduler, "scheduler is null");
    HttpServer server = HttpServer.create(address, 0);
    ExecutorService threads =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "gantry-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    server.createContext(
        "/metrics",
        e ->
            answer(
                e, 200, "text/plain; version=0.0.4; charset=utf-8", scheduler.metrics()::scrape));
    server.createContext(
        "/healthz",
        e ->
            answer(
                e,
                scheduler.healthy() ? 200 : 503,
                "text/plain; charset=utf-8",
                () -> scheduler.healthy() ? "ok\n" : "scheduling loop stalled\n"));
    server.createContext(
        "/readyz",
        e ->
            answer(
                e,
                scheduler.ready() ? 200 : 503,
                "text/plain; charset=utf-8",
                () -> scheduler.ready() ? "ok\n" : "informer caches not synced\n"));
    server.createContext(
        "/snapshot",
        e -> {
          if (!scheduler.ready()) {
            answer(e, 503, "text/plain; charset=utf-8", () -> "informer caches not synced\n");
          } else {
            answer(e, 200, "application/yaml; charset=utf-8", scheduler::snapshotScenario);
          }
        });
    ExplainService explanations = scheduler.explanations();
    server.createContext(
        "/explain",
        e ->
            serve(
                e,
                scheduler,
                query -> {
                  Optional<String> name = Optional.ofNullable(query.get("name"));
                  if (name.isEmpty() || name.get().isEmpty()) {
                    return new ExplainService.Answer(
                        400, "name is required: /explain?namespace=NS&name=POD_GROUP|pod/POD\n");
                  }
                  return explanations.explain(
                      Optional.ofNullable(query.get("namespace")).filter(n -> !n.isEmpty()),
                      name.get(),
                      format(query));
                }));
    server.createContext(
        "/queues", e -> serve(e, scheduler, query -> explanations.queues(format(query))));
    server.createContext(
        "/get-job-order", e -> serve(e, scheduler, query -> explanations.jobOrder()));
    server.createContext(
        "/", e -> answer(e, 404, "text/plain; charset=utf-8", () -> "not found\n"));
    server.start();
    return new OpsServer(server, threads);
  }

  /**
   * Serves an explanation once the caches have synced: JSON when the answer is ({@code
   * output=json}, or the job order), text otherwise.
   */
  private static void serve(
      HttpExchange exchange,
      KubeScheduler scheduler,
      Function<Map<String, String>, ExplainService.Answer> answer)
      throws IOException {
    if (!scheduler.ready() || !exchange.getRequestMethod().equals("GET")) {
      answer(exchange, 503, "text/plain; charset=utf-8", () -> "informer caches not synced\n");
      return;
    }
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    boolean json =
        exchange.getHttpContext().getPath().equals("/get-job-order")
            || format(query) == ExplainService.Format.JSON;
    ExplainService.Answer computed;
    try {
      computed = answer.apply(query);
    } catch (RuntimeException e) {
      LOG.error("serving {}", exchange.getRequestURI(), e);
      answer(exchange, 500, "text/plain; charset=utf-8", () -> "internal error: " + e + "\n");
      return;
    }
    answer(
        exchange,
        computed.status(),
        computed.ok() && json ? "application/json" : "text/plain; charset=utf-8",
        computed::body);
  }

  private static ExplainService.Format format(Map<String, String> query) {
    return "json".equals(query.get("output"))
        ? ExplainService.Format.JSON
        : ExplainService.Format.TEXT;
  }

  /** A URL query as names and decoded values; a name given twice keeps its first value. */
  private static Map<String, String> query(String raw) {
    Map<String, String> out = new TreeMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : Splitter.on('&').split(raw)) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), UTF_8);
      out.putIfAbsent(name, value);
    }
    return out;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void answer(
      HttpExchange exchange, int code, String contentType, Supplier<String> body)
      throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("GET")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      if (!exchange.getRequestURI().getPath().equals(exchange.getHttpContext().getPath())
          && code != 404) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      byte[] bytes;
      try {
        bytes = body.get().getBytes(UTF_8);
      } catch (RuntimeException e) {
        LOG.error("serving {}", exchange.getRequestURI(), e);
        code = 500;
        bytes = ("internal error: " + e + "\n").getBytes(UTF_8);
      }
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(code, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
