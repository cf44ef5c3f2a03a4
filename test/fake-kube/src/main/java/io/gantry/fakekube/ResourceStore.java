package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * The API server's object semantics over the fake etcd, shared by the HTTP layer and by tests that
 * reach the store directly: server-assigned metadata, validation, optimistic concurrency, status
 * subresources, patches, graceful deletion with finalizers, and pod binding. Every method is
 * atomic; objects go in and come out as copies.
 */
public final class ResourceStore {
  private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";
  private static final List<String> SERVER_METADATA =
      List.of(
          "uid",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "generation");

  private final ObjectStore objects;
  private final ResourceRegistry registry;
  private final Clock clock;
  private final Random random = new Random(0x6a6e7472L);

  ResourceStore(ObjectStore objects, ResourceRegistry registry, Clock clock) {
    this.objects = requireNonNull(objects, "objects is null");
    this.registry = requireNonNull(registry, "registry is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The current global resourceVersion (the last write's). */
  public long resourceVersion() {
    return objects.resourceVersion();
  }

  /** Creates an object whose kind is found from its {@code apiVersion} and {@code kind}. */
  public ObjectNode create(ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText("");
    String kindName = object.path("kind").asText("");
    ResourceKind kind =
        registry
            .byApiVersionAndKind(apiVersion, kindName)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no registered kind for apiVersion "
                            + apiVersion
                            + " kind "
                            + kindName
                            + "; register it or use create(kind, namespace, object)"));
    return create(kind, Json.namespace(object), object);
  }

  /**
   * POST: assigns uid, resourceVersion, creationTimestamp (and generation 1 where tracked), a name
   * from generateName, resets status behind a status subresource, applies pod defaults. 409 when
   * the name is taken, 422 when invalid, 400 when the body contradicts the path.
   */
  public ObjectNode create(ResourceKind requested, String namespace, ObjectNode body) {
    synchronized (objects) {
      ResourceKind kind = checkTypeMeta(requested, body);
      ObjectNode object = body.deepCopy();
      object.put("apiVersion", kind.apiVersion());
      object.put("kind", kind.kind());
      ObjectNode meta = Json.metadata(object);
      placeInNamespace(kind, namespace, meta);
      if (Json.name(object).isEmpty() && !meta.path("generateName").asText("").isEmpty()) {
        meta.put("name", generateName(kind, meta));
      }
      ObjectValidation.checkCreate(kind, object);
      if (objects.get(kind, Json.namespace(object), Json.name(object)).isPresent()) {
        throw new StatusException(KubeStatus.alreadyExists(kind, Json.name(object)));
      }
      meta.remove(SERVER_METADATA);
      meta.remove(List.of("resourceVersion", "selfLink", "managedFields"));
      meta.put("uid", newUid());
      meta.put("creationTimestamp", Json.timestamp(clock.instant()));
      if (kind.tracksGeneration()) {
        meta.put("generation", 1);
      }
      if (kind.statusPolicy() == ResourceKind.StatusPolicy.SUBRESOURCE) {
        object.remove("status");
      }
      if (kind.equals(ResourceKinds.PODS)) {
        PodRules.prepareForCreate(
            object, objects.list(Selection.all(ResourceKinds.PRIORITY_CLASSES, "")));
      } else if (kind.equals(ResourceKinds.NAMESPACES) && !object.path("status").has("phase")) {
        object.putObject("status").put("phase", "Active");
      }
      return objects.put(kind, object);
    }
  }

  public Optional<ObjectNode> get(ResourceKind kind, String namespace, String name) {
    return objects.get(kind, scoped(kind, namespace), name);
  }

  /** Objects of the kind in the namespace (empty: all), ordered by namespace and name. */
  public List<ObjectNode> list(ResourceKind kind, String namespace) {
    return objects.list(Selection.all(kind, scoped(kind, namespace)));
  }

  public List<ObjectNode> list(Selection selection) {
    return objects.list(selection);
  }

  /**
   * PUT on the main resource: 404 when absent, 409 on a stale {@code metadata.resourceVersion} (422
   * when a custom resource omits it), server metadata kept, status kept when the kind has a status
   * subresource. An update that changes nothing writes nothing.
   */
  public ObjectNode update(ResourceKind kind, String namespace, String name, ObjectNode body) {
    return replace(kind, namespace, name, body, false);
  }

  /** PUT on {@code /status}: only the body's status is taken; everything else is kept. */
  public ObjectNode updateStatus(
      ResourceKind kind, String namespace, String name, ObjectNode body) {
    return replace(kind, namespace, name, body, true);
  }

  /**
   * PATCH on the resource or (status true) its {@code /status}: the patch is applied to the stored
   * object, and the result written as by {@link #update} or {@link #updateStatus}. A
   * resourceVersion in the patch is a precondition (409 when stale).
   */
  public ObjectNode patch(
      ResourceKind kind,
      String namespace,
      String name,
      PatchType type,
      String body,
      boolean status) {
    synchronized (objects) {
      ObjectNode current = existing(kind, namespace, name);
      JsonNode patched = type.apply(current, Json.parse(body));
      if (!patched.isObject()) {
        throw new StatusException(KubeStatus.unprocessable("the patched object is not an object"));
      }
      ObjectNode object = (ObjectNode) patched;
      String version = Json.text(object, "metadata.resourceVersion").orElse("");
      String currentVersion = Json.text(current, "metadata.resourceVersion").orElse("");
      if (!version.isEmpty() && !version.equals(currentVersion)) {
        throw new StatusException(KubeStatus.modified(kind, name));
      }
      Json.metadata(object).put("resourceVersion", currentVersion);
      return replace(kind, namespace, name, object, status);
    }
  }

  /**
   * DELETE. A pod bound to a node gets a grace period ({@link PodRules#gracePeriod}): it is marked
   * with {@code deletionTimestamp} (now + grace) and {@code deletionGracePeriodSeconds} and stays
   * until deleted again with grace 0 (the kubelet does this). With grace 0, an object with
   * finalizers is marked and stays until they are cleared; any other is removed. Returns the object
   * as it now is (or as it was removed).
   */
  public ObjectNode delete(
      ResourceKind kind, String namespace, String name, DeleteOptions options) {
    synchronized (objects) {
      ObjectNode current = existing(kind, namespace, name);
      options.checkPreconditions(kind, current);
      long grace = kind.equals(ResourceKinds.PODS) ? PodRules.gracePeriod(current, options) : 0;
      ObjectNode meta = Json.metadata(current);
      boolean terminating = meta.hasNonNull("deletionTimestamp");
      long currentGrace = meta.path("deletionGracePeriodSeconds").asLong(Long.MAX_VALUE);
      if (grace > 0) {
        if (terminating && currentGrace <= grace) {
          return current;
        }
        ObjectNode next = current.deepCopy();
        markDeleted(next, clock.instant().plusSeconds(grace), grace);
        return objects.put(kind, next);
      }
      if (meta.path("finalizers").isArray() && !meta.path("finalizers").isEmpty()) {
        if (terminating && currentGrace == 0) {
          return current;
        }
        ObjectNode next = current.deepCopy();
        String since = meta.path("deletionTimestamp").asText(Json.timestamp(clock.instant()));
        markDeleted(next, Instant.parse(since), 0);
        return objects.put(kind, next);
      }
      return objects.remove(kind, Json.namespace(current), name).orElseThrow();
    }
  }

  /** pods/binding: see {@link PodRules#bind}. Returns the bound pod. */
  public ObjectNode bind(String namespace, String podName, ObjectNode binding) {
    synchronized (objects) {
      ObjectNode pod = existing(ResourceKinds.PODS, namespace, podName);
      return objects.put(ResourceKinds.PODS, PodRules.bind(pod, binding, clock.instant()));
    }
  }

  Instant now() {
    return clock.instant();
  }

  /**
   * Tells {@code listener} of every change from now on (the fake kubelet; {@code gantry bench}'s
   * end-to-end presets, timing binds). It is called under the store's lock: it must only record or
   * enqueue.
   */
  public void subscribe(java.util.function.Consumer<StoreEvent> listener) {
    objects.subscribe(listener);
  }

  public void unsubscribe(java.util.function.Consumer<StoreEvent> listener) {
    objects.unsubscribe(listener);
  }

  private ObjectNode replace(
      ResourceKind requested, String namespace, String name, ObjectNode body, boolean status) {
    synchronized (objects) {
      ResourceKind kind = checkTypeMeta(requested, body);
      ObjectNode meta = Json.metadata(body);
      String bodyName = meta.path("name").asText("");
      if (!bodyName.isEmpty() && !bodyName.equals(name)) {
        throw new StatusException(
            KubeStatus.badRequest(
                "the name of the object ("
                    + bodyName
                    + ") does not match the name on the URL ("
                    + name
                    + ")"));
      }
      ObjectNode current = existing(kind, namespace, name);
      String version = meta.path("resourceVersion").asText("");
      if (!version.isEmpty()
          && !version.equals(Json.text(current, "metadata.resourceVersion").orElse(""))) {
        throw new StatusException(KubeStatus.modified(kind, name));
      }
      if (version.isEmpty() && kind.custom()) {
        throw new StatusException(
            KubeStatus.invalid(
                kind,
                name,
                List.of(
                    new KubeStatus.Cause(
                        "FieldValueInvalid",
                        "Invalid value: 0x0: must be specified for an update",
                        "metadata.resourceVersion"))));
      }
      ObjectNode next;
      if (status) {
        next = current.deepCopy();
        copyField(body, next, "status");
      } else {
        next = body.deepCopy();
        ObjectNode nextMeta = Json.metadata(next);
        placeInNamespace(kind, Json.namespace(current), nextMeta);
        nextMeta.put("name", name);
        nextMeta.remove(SERVER_METADATA);
        for (String field : SERVER_METADATA) {
          copyField(Json.metadata(current), nextMeta, field);
        }
        if (kind.hasStatusSubresource()) {
          copyField(current, next, "status");
        }
        if (kind.equals(ResourceKinds.PODS)) {
          PodRules.checkUpdate(current, next);
        }
      }
      return commit(kind, current, next, status);
    }
  }

  private ObjectNode commit(
      ResourceKind kind, ObjectNode current, ObjectNode next, boolean status) {
    next.put("apiVersion", kind.apiVersion());
    next.put("kind", kind.kind());
    ObjectNode meta = Json.metadata(next);
    meta.put("resourceVersion", Json.text(current, "metadata.resourceVersion").orElse(""));
    if (kind.tracksGeneration()
        && !status
        && !withoutMetaAndStatus(current).equals(withoutMetaAndStatus(next))) {
      meta.put("generation", current.path("metadata").path("generation").asLong(1) + 1);
    }
    if (Json.canonical(next).equals(current)) {
      return current;
    }
    boolean finalized = !meta.path("finalizers").isArray() || meta.path("finalizers").isEmpty();
    if (meta.hasNonNull("deletionTimestamp")
        && finalized
        && meta.path("deletionGracePeriodSeconds").asLong(0) == 0) {
      return objects.remove(kind, Json.namespace(current), Json.name(current)).orElseThrow();
    }
    return objects.put(kind, next);
  }

  private ResourceKind checkTypeMeta(ResourceKind kind, ObjectNode body) {
    String apiVersion = body.path("apiVersion").asText("");
    if (!apiVersion.isEmpty() && !apiVersion.equals(kind.apiVersion())) {
      throw new StatusException(
          KubeStatus.badRequest(
              "the API version in the data ("
                  + apiVersion
                  + ") does not match the expected API version ("
                  + kind.apiVersion()
                  + ")"));
    }
    String kindName = body.path("kind").asText("");
    ResourceKind learned = registry.learnKindName(kind, kindName);
    if (!kindName.isEmpty() && !kindName.equals(learned.kind())) {
      throw new StatusException(
          KubeStatus.badRequest(
              "the kind in the data ("
                  + kindName
                  + ") does not match the expected kind ("
                  + learned.kind()
                  + ")"));
    }
    return learned;
  }

  private void placeInNamespace(ResourceKind kind, String namespace, ObjectNode meta) {
    if (!kind.namespaced()) {
      meta.remove("namespace");
      return;
    }
    String inBody = meta.path("namespace").asText("");
    if (!namespace.isEmpty() && !inBody.isEmpty() && !inBody.equals(namespace)) {
      throw new StatusException(
          KubeStatus.badRequest(
              "the namespace of the provided object does not match the namespace sent on the"
                  + " request"));
    }
    String chosen = !namespace.isEmpty() ? namespace : inBody.isEmpty() ? "default" : inBody;
    meta.put("namespace", chosen);
  }

  private ObjectNode existing(ResourceKind kind, String namespace, String name) {
    return objects
        .get(kind, scoped(kind, namespace), name)
        .orElseThrow(() -> new StatusException(KubeStatus.notFound(kind, name)));
  }

  private static void markDeleted(ObjectNode object, Instant at, long grace) {
    ObjectNode meta = Json.metadata(object);
    meta.put("deletionTimestamp", Json.timestamp(at));
    meta.put("deletionGracePeriodSeconds", grace);
  }

  private String generateName(ResourceKind kind, ObjectNode meta) {
    String prefix = meta.path("generateName").asText();
    String namespace = meta.path("namespace").asText("");
    while (true) {
      StringBuilder name = new StringBuilder(prefix);
      for (int i = 0; i < 5; i++) {
        name.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
      }
      if (objects.get(kind, namespace, name.toString()).isEmpty()) {
        return name.toString();
      }
    }
  }

  private String newUid() {
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  private static String scoped(ResourceKind kind, String namespace) {
    return kind.namespaced() ? namespace : "";
  }

  private static void copyField(ObjectNode from, ObjectNode to, String field) {
    if (from.has(field)) {
      to.set(field, from.get(field).deepCopy());
    } else {
      to.remove(field);
    }
  }

  private static ObjectNode withoutMetaAndStatus(ObjectNode object) {
    ObjectNode copy = object.deepCopy();
    copy.remove(List.of("metadata", "status"));
    return copy;
  }
}
