package io.gantry.fakekube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the API server does to pods beyond plain storage: defaults and the priority admission on
 * create, spec immutability on update, the grace period of a delete, and binding.
 */
final class PodRules {
  static final long DEFAULT_GRACE_PERIOD_SECONDS = 30;
  static final String DEFAULT_SCHEDULER = "default-scheduler";

  private PodRules() {}

  /**
   * Create: status reset to {@code phase: Pending} (pod strategy PrepareForCreate); defaults for
   * {@code schedulerName}, {@code restartPolicy}, {@code dnsPolicy}, {@code
   * terminationGracePeriodSeconds}; {@code priority} and {@code preemptionPolicy} from the named
   * PriorityClass, or from the global default one, or 0 (Priority admission plugin). A named class
   * that does not exist is a 403.
   */
  static void prepareForCreate(ObjectNode pod, List<ObjectNode> priorityClasses) {
    pod.putObject("status").put("phase", "Pending");
    ObjectNode spec = Json.spec(pod);
    applyDefaults(spec);
    String className = spec.path("priorityClassName").asText("");
    Optional<ObjectNode> priorityClass =
        priorityClasses.stream()
            .filter(
                c ->
                    className.isEmpty()
                        ? c.path("globalDefault").asBoolean(false)
                        : className.equals(Json.name(c)))
            .findFirst();
    if (!className.isEmpty() && priorityClass.isEmpty()) {
      throw new StatusException(
          KubeStatus.forbidden(
              ResourceKinds.PODS,
              Json.name(pod),
              "no PriorityClass with name " + className + " was found"));
    }
    spec.put("priority", priorityClass.map(c -> c.path("value").asInt(0)).orElse(0));
    priorityClass.ifPresent(
        c -> {
          if (className.isEmpty()) {
            spec.put("priorityClassName", Json.name(c));
          }
          spec.put("preemptionPolicy", c.path("preemptionPolicy").asText("PreemptLowerPriority"));
        });
  }

  /**
   * Update: a pod's spec may change only in container images, {@code activeDeadlineSeconds}, {@code
   * tolerations}, {@code schedulingGates} and {@code terminationGracePeriodSeconds}; anything else
   * (notably {@code nodeName}, which only binding sets) is a 422.
   */
  static void checkUpdate(ObjectNode current, ObjectNode next) {
    ObjectNode spec = Json.spec(next);
    applyDefaults(spec);
    JsonNode old = current.path("spec");
    for (String admitted : List.of("priority", "priorityClassName", "preemptionPolicy")) {
      if (!spec.has(admitted) && old.has(admitted)) {
        spec.set(admitted, old.get(admitted).deepCopy());
      }
    }
    if (!mutableMasked(current.path("spec")).equals(mutableMasked(next.path("spec")))) {
      throw new StatusException(
          KubeStatus.invalid(
              ResourceKinds.PODS,
              Json.name(current),
              List.of(
                  new KubeStatus.Cause(
                      "FieldValueForbidden",
                      "Forbidden: pod updates may not change fields other than"
                          + " `spec.containers[*].image`,`spec.initContainers[*].image`,"
                          + "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to"
                          + " existing tolerations),`spec.terminationGracePeriodSeconds`",
                      "spec"))));
    }
  }

  /**
   * The grace period of a pod delete: the request's, else the pod's {@code
   * terminationGracePeriodSeconds}, else 30; 0 for a pod that is not bound to a node or has
   * finished, which the real server deletes at once.
   */
  static long gracePeriod(ObjectNode pod, DeleteOptions options) {
    String phase = Json.text(pod, "status.phase").orElse("");
    if (Json.text(pod, "spec.nodeName").orElse("").isEmpty()
        || phase.equals("Succeeded")
        || phase.equals("Failed")) {
      return 0;
    }
    long grace =
        options
            .gracePeriodSeconds()
            .orElse(
                pod.path("spec")
                    .path("terminationGracePeriodSeconds")
                    .asLong(DEFAULT_GRACE_PERIOD_SECONDS));
    return Math.max(grace, 0);
  }

  /**
   * Binding (pods/binding): 409 when the pod is bound or being deleted; otherwise sets {@code
   * spec.nodeName}, copies the binding's annotations onto the pod and sets the {@code PodScheduled}
   * condition to True.
   */
  static ObjectNode bind(ObjectNode pod, ObjectNode binding, Instant now) {
    String name = Json.name(pod);
    String node = binding.path("target").path("name").asText("");
    String targetKind = binding.path("target").path("kind").asText("");
    if (node.isEmpty() || !(targetKind.isEmpty() || targetKind.equals("Node"))) {
      throw new StatusException(
          KubeStatus.invalid(
              ResourceKinds.BINDINGS,
              name,
              List.of(
                  node.isEmpty()
                      ? new KubeStatus.Cause("FieldValueRequired", "Required value", "target.name")
                      : new KubeStatus.Cause(
                          "FieldValueNotSupported",
                          "Unsupported value: \"" + targetKind + "\": supported values: \"Node\"",
                          "target.kind"))));
    }
    Optional<String> uid = Json.text(binding, "metadata.uid");
    if (uid.isPresent() && !uid.get().equals(Json.text(pod, "metadata.uid").orElse(""))) {
      throw conflict(name, "Precondition failed: UID in precondition: " + uid.get());
    }
    if (pod.path("metadata").hasNonNull("deletionTimestamp")) {
      throw conflict(name, "pod " + name + " is being deleted, cannot be assigned to a host");
    }
    String bound = Json.text(pod, "spec.nodeName").orElse("");
    if (!bound.isEmpty()) {
      throw conflict(name, "pod " + name + " is already assigned to node \"" + bound + "\"");
    }
    ObjectNode next = pod.deepCopy();
    Json.spec(next).put("nodeName", node);
    JsonNode annotations = binding.path("metadata").path("annotations");
    if (annotations.isObject() && !annotations.isEmpty()) {
      JsonNode existing = Json.metadata(next).get("annotations");
      ObjectNode target =
          existing instanceof ObjectNode o ? o : Json.metadata(next).putObject("annotations");
      target.setAll((ObjectNode) annotations);
    }
    setCondition(next, "PodScheduled", now);
    return next;
  }

  /** Sets a True condition of the type, keeping its transition time when it was True already. */
  static void setCondition(ObjectNode pod, String type, Instant now) {
    JsonNode status = pod.get("status");
    ObjectNode statusNode = status instanceof ObjectNode o ? o : pod.putObject("status");
    JsonNode list = statusNode.get("conditions");
    ArrayNode conditions = list instanceof ArrayNode a ? a : statusNode.putArray("conditions");
    for (JsonNode condition : conditions) {
      if (type.equals(condition.path("type").asText())) {
        if (!"True".equals(condition.path("status").asText())) {
          ((ObjectNode) condition)
              .put("status", "True")
              .put("lastTransitionTime", Json.timestamp(now));
        }
        return;
      }
    }
    conditions
        .addObject()
        .put("type", type)
        .put("status", "True")
        .putNull("lastProbeTime")
        .put("lastTransitionTime", Json.timestamp(now));
  }

  private static StatusException conflict(String name, String why) {
    return new StatusException(KubeStatus.conflict("pods/binding", "", name, why));
  }

  private static JsonNode mutableMasked(JsonNode spec) {
    if (!spec.isObject()) {
      return spec;
    }
    ObjectNode masked = ((ObjectNode) spec).deepCopy();
    masked.remove(
        List.of(
            "activeDeadlineSeconds",
            "tolerations",
            "schedulingGates",
            "terminationGracePeriodSeconds"));
    for (String list : List.of("containers", "initContainers")) {
      for (JsonNode container : masked.path(list)) {
        ((ObjectNode) container).remove("image");
      }
    }
    return masked;
  }

  private static void applyDefaults(ObjectNode spec) {
    putIfAbsent(spec, "schedulerName", DEFAULT_SCHEDULER);
    putIfAbsent(spec, "restartPolicy", "Always");
    putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    if (!spec.hasNonNull("terminationGracePeriodSeconds")) {
      spec.put("terminationGracePeriodSeconds", DEFAULT_GRACE_PERIOD_SECONDS);
    }
  }

  private static void putIfAbsent(ObjectNode node, String field, String value) {
    if (!node.hasNonNull(field)) {
      node.put(field, value);
    }
  }
}
