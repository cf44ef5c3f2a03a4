package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The verbs on one resource path: get, list, watch, create, update, patch, delete,
 * deletecollection, and the status, binding and eviction subresources.
 */
final class ResourceHandler {
  private final ResourceStore store;
  private final ObjectStore objects;
  private final WatchHub watches;
  private final FakeKubeConfig config;

  ResourceHandler(
      ResourceStore store, ObjectStore objects, WatchHub watches, FakeKubeConfig config) {
    this.store = requireNonNull(store, "store is null");
    this.objects = requireNonNull(objects, "objects is null");
    this.watches = requireNonNull(watches, "watches is null");
    this.config = requireNonNull(config, "config is null");
  }

  /** The Kubernetes verb of a request, as {@link RequestCounts} records it. */
  static String verb(ApiRequest request, ResourcePath path) {
    boolean collection = path.name().isEmpty();
    return switch (request.method()) {
      case "GET" -> collection ? (request.flag("watch") ? "watch" : "list") : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> collection ? "deletecollection" : "delete";
      default -> request.method().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /** Serves the request; true when a watch must end by dropping the connection. */
  boolean handle(HttpExchange exchange, ApiRequest request, ResourcePath path) throws IOException {
    if (request.param("dryRun").isPresent()) {
      throw new StatusException(KubeStatus.badRequest("dryRun is not supported by the fake"));
    }
    ResourceKind kind = path.kind();
    String namespace = path.namespace();
    Optional<String> sub = path.subresource();
    if (path.name().isEmpty()) {
      switch (request.method()) {
        case "GET" -> {
          if (request.flag("watch")) {
            return watch(exchange, request, selection(request, path));
          }
          list(exchange, request, selection(request, path));
        }
        case "POST" -> {
          ObjectNode body = Json.parseObject(request.body());
          if (kind.equals(ResourceKinds.BINDINGS)) {
            store.bind(namespace, Json.name(body), body);
            Responses.status(exchange, KubeStatus.success(201));
          } else {
            Responses.json(exchange, 201, store.create(kind, namespace, body));
          }
        }
        case "DELETE" -> Responses.json(exchange, 200, deleteCollection(request, path));
        default -> throw new StatusException(KubeStatus.methodNotAllowed(request.method()));
      }
      return false;
    }
    String name = path.name().get();
    if (sub.isPresent() && !sub.get().equals("status")) {
      return subresource(exchange, request, path, name, sub.get());
    }
    boolean status = sub.isPresent();
    if (status && !kind.hasStatusSubresource()) {
      throw new StatusException(KubeStatus.pathNotFound());
    }
    switch (request.method()) {
      case "GET" ->
          Responses.json(
              exchange,
              200,
              store
                  .get(kind, namespace, name)
                  .orElseThrow(() -> new StatusException(KubeStatus.notFound(kind, name))));
      case "PUT" -> {
        ObjectNode body = Json.parseObject(request.body());
        Responses.json(
            exchange,
            200,
            status
                ? store.updateStatus(kind, namespace, name, body)
                : store.update(kind, namespace, name, body));
      }
      case "PATCH" -> {
        PatchType type = PatchType.fromContentType(request.contentType(), kind.custom());
        Responses.json(
            exchange, 200, store.patch(kind, namespace, name, type, request.body(), status));
      }
      case "DELETE" -> {
        if (status) {
          throw new StatusException(KubeStatus.methodNotAllowed(request.method()));
        }
        JsonNode body = request.body().isBlank() ? Json.object() : Json.parseObject(request.body());
        DeleteOptions options = DeleteOptions.from(body, request.param("gracePeriodSeconds"));
        Responses.json(exchange, 200, store.delete(kind, namespace, name, options));
      }
      default -> throw new StatusException(KubeStatus.methodNotAllowed(request.method()));
    }
    return false;
  }

  private boolean subresource(
      HttpExchange exchange, ApiRequest request, ResourcePath path, String name, String sub)
      throws IOException {
    boolean pods = path.kind().equals(ResourceKinds.PODS);
    if (!pods || !(sub.equals("binding") || sub.equals("eviction"))) {
      throw new StatusException(KubeStatus.pathNotFound());
    }
    if (!request.method().equals("POST")) {
      throw new StatusException(KubeStatus.methodNotAllowed(request.method()));
    }
    ObjectNode body = Json.parseObject(request.body());
    String bodyName = Json.name(body);
    if (!bodyName.isEmpty() && !bodyName.equals(name)) {
      throw new StatusException(
          KubeStatus.badRequest(
              "name in URL does not match name in "
                  + sub
                  + " object: "
                  + name
                  + " vs "
                  + bodyName));
    }
    if (sub.equals("binding")) {
      store.bind(path.namespace(), name, body);
    } else {
      DeleteOptions options = DeleteOptions.from(body.path("deleteOptions"), Optional.empty());
      store.delete(ResourceKinds.PODS, path.namespace(), name, options);
    }
    Responses.status(exchange, KubeStatus.success(201));
    return false;
  }

  /**
   * Writes the list from the stored objects themselves as the body streams out: no copy of the
   * objects, and no body whole in memory. Paging errors (a bad token or limit) are found before the
   * headers go out, so they still answer as a Status.
   */
  private void list(HttpExchange exchange, ApiRequest request, Selection selection)
      throws IOException {
    ListPage page =
        ListPage.of(
            selection.kind(),
            objects.listing(selection),
            request.param("continue"),
            request.param("limit").map(ResourceHandler::parseLimit).orElse(0L));
    try (JsonGenerator json = Responses.stream(exchange, 200)) {
      page.writeTo(json);
    }
  }

  private ObjectNode deleteCollection(ApiRequest request, ResourcePath path) {
    Selection selection = selection(request, path);
    JsonNode body = request.body().isBlank() ? Json.object() : Json.parseObject(request.body());
    DeleteOptions options = DeleteOptions.from(body, request.param("gracePeriodSeconds"));
    ObjectNode json = Json.object();
    json.put("kind", path.kind().listKind());
    json.put("apiVersion", path.kind().apiVersion());
    ArrayNode deleted = json.putArray("items");
    synchronized (objects) {
      for (ObjectNode object : store.list(selection)) {
        deleted.add(store.delete(path.kind(), Json.namespace(object), Json.name(object), options));
      }
      json.putObject("metadata").put("resourceVersion", Long.toString(store.resourceVersion()));
    }
    return json;
  }

  private boolean watch(HttpExchange exchange, ApiRequest request, Selection selection)
      throws IOException {
    String version = request.param("resourceVersion").orElse("");
    OptionalLong from =
        version.isEmpty() || version.equals("0")
            ? OptionalLong.empty()
            : OptionalLong.of(parseVersion(version));
    Duration timeout =
        request
            .param("timeoutSeconds")
            .map(t -> Duration.ofSeconds(parseLimit(t)))
            .filter(t -> !t.isZero() && t.compareTo(config.maxWatchTimeout()) < 0)
            .orElse(config.maxWatchTimeout());
    boolean bookmarks = config.bookmarks() && request.flag("allowWatchBookmarks");
    WatchSession session =
        new WatchSession(
            objects,
            new WatchSession.Params(
                selection,
                from,
                timeout,
                bookmarks,
                config.bookmarkInterval(),
                request.flag("sendInitialEvents")));
    try {
      return session.serve(exchange, () -> watches.add(session));
    } finally {
      watches.remove(session);
    }
  }

  private static Selection selection(ApiRequest request, ResourcePath path) {
    return new Selection(
        path.kind(),
        path.namespace(),
        LabelSelector.parse(request.param("labelSelector").orElse("")),
        FieldSelector.parse(request.param("fieldSelector").orElse(""), path.kind()));
  }

  private static long parseVersion(String version) {
    try {
      return Long.parseLong(version);
    } catch (NumberFormatException e) {
      throw new StatusException(
          KubeStatus.badRequest("invalid resource version \"" + version + "\""));
    }
  }

  private static long parseLimit(String value) {
    try {
      return Math.max(0, Long.parseLong(value));
    } catch (NumberFormatException e) {
      throw new StatusException(KubeStatus.badRequest("invalid integer \"" + value + "\""));
    }
  }
}
