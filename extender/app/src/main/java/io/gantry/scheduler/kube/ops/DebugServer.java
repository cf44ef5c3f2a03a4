package io.gantry.scheduler.kube.ops;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gantry.kubemodel.explain.ExplainService;
import io.gantry.scheduler.kube.KubeScheduler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's debug endpoints: {@code GET /snapshot}, the live state as a scenario file for
 * {@code gantry simulate}; KAI's {@code GET /get-snapshot}, the objects the scheduler schedules by
 * as a KAI snapshot (a ZIP that {@code gantry simulate} and KAI's tools read); and the explanations
 * of {@link ExplainService}: {@code /explain?namespace=&name=&output=text|json}, {@code
 * /queues?output=} and KAI's {@code /get-job-order}. They name every pod, node and queue of the
 * cluster, so it is served apart from {@link OpsServer}'s Service port, on an address of its own:
 * the pod's loopback by default ({@code --debug-address}), reached with {@code kubectl
 * port-forward}, which the API server authorises as {@code create pods/portforward}.
 *
 * <p>Nothing to redact: a scenario holds what the engine schedules by (names, labels, requests,
 * tolerations, affinities), never a container's env, command or volumes, nor any ConfigMap or
 * Secret data.
 */
public final class DebugServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DebugServer.class);

  /** Where {@code gantry scheduler} serves the debug endpoints unless told otherwise. */
  public static final String DEFAULT_ADDRESS = "127.0.0.1:8081";

  private final HttpServer server;

  private DebugServer(HttpServer server) {
    this.server = server;
  }

  public static DebugServer start(KubeScheduler scheduler, InetSocketAddress address)
      throws IOException {
    requireNonNull(scheduler, "scheduler is null");
    HttpServer server = OpsServer.listen(address, "gantry-debug-http", 1);
    server.createContext(
        "/snapshot",
        e -> {
          if (!scheduler.ready()) {
            OpsServer.answer(
                e, 503, "text/plain; charset=utf-8", () -> "informer caches not synced\n");
          } else {
            OpsServer.answer(
                e, 200, "application/yaml; charset=utf-8", scheduler::snapshotScenario);
          }
        });
    server.createContext(
        "/get-snapshot",
        e -> {
          if (!scheduler.ready()) {
            OpsServer.answer(
                e, 503, "text/plain; charset=utf-8", () -> "informer caches not synced\n");
          } else {
            e.getResponseHeaders().set("Content-Disposition", "attachment; filename=snapshot.zip");
            OpsServer.answerBytes(e, 200, "application/zip", scheduler::kaiSnapshot);
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
        "/", e -> OpsServer.answer(e, 404, "text/plain; charset=utf-8", () -> "not found\n"));
    server.start();
    return new DebugServer(server);
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
      OpsServer.answer(
          exchange, 503, "text/plain; charset=utf-8", () -> "informer caches not synced\n");
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
      OpsServer.answer(
          exchange, 500, "text/plain; charset=utf-8", () -> "internal error: " + e + "\n");
      return;
    }
    OpsServer.answer(
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

  /** The address served on (the port chosen, for port 0). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /**
   * {@code HOST:PORT} as an address: the form of {@code --debug-address}.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code text}
   */
  public static InetSocketAddress parseAddress(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'", e);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("cannot resolve host '" + host + "'");
    }
    return address;
  }

  @Override
  public void close() {
    OpsServer.stop(server);
  }
}
