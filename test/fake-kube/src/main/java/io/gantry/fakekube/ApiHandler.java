package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's one HTTP handler: reads the request, counts it, answers it with a test's {@link
 * Refusals} if one matches, routes discovery paths to {@link Discovery} and resource paths to
 * {@link ResourceHandler}, and turns failures into {@code Status} responses (a bug in the fake
 * becomes a 500 Status and is logged; the server keeps serving).
 */
final class ApiHandler implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

  private final ResourceRegistry registry;
  private final ResourceHandler resources;
  private final Discovery discovery;
  private final RequestCounts counts;
  private final ApiAccessLog accesses;
  private final Refusals refusals;

  ApiHandler(
      ResourceRegistry registry,
      ResourceHandler resources,
      Discovery discovery,
      RequestCounts counts,
      ApiAccessLog accesses,
      Refusals refusals) {
    this.registry = requireNonNull(registry, "registry is null");
    this.resources = requireNonNull(resources, "resources is null");
    this.discovery = requireNonNull(discovery, "discovery is null");
    this.counts = requireNonNull(counts, "counts is null");
    this.accesses = requireNonNull(accesses, "accesses is null");
    this.refusals = requireNonNull(refusals, "refusals is null");
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    boolean dropConnection = false;
    try {
      ApiRequest request = ApiRequest.read(exchange);
      log.debug("{} {}?{}", request.method(), request.path(), request.query());
      try {
        dropConnection = route(exchange, request);
      } catch (StatusException e) {
        log.debug(
            "{} {} -> {} {}", request.method(), request.path(), e.status().code(), e.getMessage());
        Responses.status(exchange, e.status());
      } catch (RuntimeException e) {
        log.warn("{} {} failed in the fake", request.method(), request.path(), e);
        Responses.status(exchange, KubeStatus.internalError(String.valueOf(e)));
      }
    } finally {
      if (!dropConnection) {
        exchange.close();
      }
    }
    if (dropConnection) {
      throw new IOException("watch connection dropped by a test hook");
    }
  }

  private boolean route(HttpExchange exchange, ApiRequest request) throws IOException {
    ImmutableList<String> s = request.segments();
    Optional<ObjectNode> document = Optional.empty();
    if (s.size() == 1 && s.get(0).equals("version")) {
      document = Optional.of(discovery.version());
    } else if (s.size() == 1 && s.get(0).equals("api")) {
      document = Optional.of(discovery.coreVersions());
    } else if (s.size() == 1 && s.get(0).equals("apis")) {
      document = Optional.of(discovery.groupList());
    } else if (s.size() == 2 && s.get(0).equals("apis")) {
      document = discovery.group(s.get(1));
      if (document.isEmpty()) {
        throw new StatusException(KubeStatus.pathNotFound());
      }
    } else if (s.size() == 2 && s.get(0).equals("api")) {
      document = discovery.resources("", s.get(1));
    } else if (s.size() == 3 && s.get(0).equals("apis")) {
      document = discovery.resources(s.get(1), s.get(2));
    }
    if (document.isPresent()) {
      counts.record("get", request.path());
      requireMethod(request, "GET");
      Responses.json(exchange, 200, document.get());
      return false;
    }
    Optional<ResourcePath> path = resourcePath(s);
    if (path.isEmpty()) {
      counts.record(request.method().toLowerCase(java.util.Locale.ROOT), request.path());
      throw new StatusException(KubeStatus.pathNotFound());
    }
    String verb = ResourceHandler.verb(request, path.get());
    counts.record(verb, request.path());
    accesses.record(request.userAgent(), path.get(), verb);
    Optional<KubeStatus> refused = refusals.refusal(verb, request.path());
    if (refused.isPresent()) {
      throw new StatusException(refused.get());
    }
    return resources.handle(exchange, request, path.get());
  }

  private Optional<ResourcePath> resourcePath(List<String> s) {
    if (s.size() >= 3 && s.get(0).equals("api")) {
      return ResourcePath.parse("", s.get(1), s.subList(2, s.size()), registry);
    }
    if (s.size() >= 4 && s.get(0).equals("apis")) {
      return ResourcePath.parse(s.get(1), s.get(2), s.subList(3, s.size()), registry);
    }
    return Optional.empty();
  }

  private static void requireMethod(ApiRequest request, String method) {
    if (!request.method().equals(method)) {
      throw new StatusException(KubeStatus.methodNotAllowed(request.method()));
    }
  }
}
