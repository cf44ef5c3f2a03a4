package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.grouping.PodGroupPlanner;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Pod object of a {@code filter} or {@code prioritize} request (kube-scheduler sends the whole
 * pod), read for grouping a pod that is in no PodGroup yet: what KAI's podgrouper reads of a pod
 * (kai-reference §1.3, §3.1) and the object itself, for a cluster that groups from more of it.
 *
 * @param schedulerName {@code spec.schedulerName}; kube-scheduler's {@value #DEFAULT_SCHEDULER}
 *     when unset, as the API server defaults it
 * @param owners {@code metadata.ownerReferences}, in order
 */
public record RequestPod(
    PodRef ref,
    String schedulerName,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations,
    ImmutableList<Owner> owners,
    JsonNode object) {
  /** The name the API server gives a pod's scheduler when the pod names none. */
  public static final String DEFAULT_SCHEDULER = "default-scheduler";

  /** KAI's annotations naming a pod's PodGroup and leaving it to its owner (kai-reference §3.1). */
  public static final String POD_GROUP_ANNOTATION = PodGroupPlanner.POD_GROUP_ANNOTATION;

  public static final String SKIP_PODGROUPER_ANNOTATION = PodGroupPlanner.SKIP_ANNOTATION;

  public RequestPod {
    requireNonNull(ref, "ref is null");
    requireNonNull(schedulerName, "schedulerName is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
    requireNonNull(owners, "owners is null");
    requireNonNull(object, "object is null");
  }

  /** An owner reference of the pod. */
  public record Owner(String apiVersion, String kind, String name, boolean controller) {
    public Owner {
      requireNonNull(apiVersion, "apiVersion is null");
      requireNonNull(kind, "kind is null");
      requireNonNull(name, "name is null");
    }
  }

  /** The pod kube-scheduler sent; fields that are missing or of another type read as unset. */
  public static RequestPod of(PodRef ref, JsonNode object) {
    JsonNode meta = object.path("metadata");
    String scheduler = object.path("spec").path("schedulerName").asText("");
    ImmutableList.Builder<Owner> owners = ImmutableList.builder();
    for (JsonNode r : meta.path("ownerReferences")) {
      owners.add(
          new Owner(
              r.path("apiVersion").asText(""),
              r.path("kind").asText(""),
              r.path("name").asText(""),
              r.path("controller").asBoolean(false)));
    }
    return new RequestPod(
        ref,
        scheduler.isEmpty() ? DEFAULT_SCHEDULER : scheduler,
        strings(meta.path("labels")),
        strings(meta.path("annotations")),
        owners.build(),
        object);
  }

  /** A request that names the pod only (the object holds its name, namespace and UID). */
  public static RequestPod named(PodRef ref) {
    ObjectNode object = JsonNodeFactory.instance.objectNode();
    object
        .putObject("metadata")
        .put("name", ref.name())
        .put("namespace", ref.namespace())
        .put("uid", ref.uid());
    return of(ref, object);
  }

  /**
   * Whether Gantry schedules this pod when no PodGroup holds it yet: the pod is one of {@code
   * schedulerName}'s (the pods a snapshot takes, {@code SnapshotScope}) and names its queue with
   * {@code queueLabelKey}. kube-scheduler sends the extender every pod it schedules; without the
   * label a pod is left to kube-scheduler, as before.
   */
  public boolean scheduledBy(String schedulerName, String queueLabelKey) {
    return this.schedulerName.equals(schedulerName)
        && !labels.getOrDefault(queueLabelKey, "").isEmpty();
  }

  /**
   * Why KAI's podgrouper leaves this pod alone as far as the pod itself tells (kai-reference §1.3):
   * it is annotated {@code kai.scheduler/skip-podgrouper: "true"}, or it has no owner and names its
   * PodGroup (one that does not exist, or the pod would be in it); empty when it groups the pod.
   */
  public Optional<String> leftAlone() {
    if ("true".equals(annotations.get(SKIP_PODGROUPER_ANNOTATION))) {
      return Optional.of("it is annotated " + SKIP_PODGROUPER_ANNOTATION + ": \"true\"");
    }
    String named = annotations.getOrDefault(POD_GROUP_ANNOTATION, "");
    return owners.isEmpty() && !named.isEmpty()
        ? Optional.of("it names PodGroup " + named + ", which does not exist")
        : Optional.empty();
  }

  /** The controller owner reference, else the first, as the podgrouper walks them. */
  public Optional<Owner> owner() {
    return owners.stream()
        .filter(Owner::controller)
        .findFirst()
        .or(() -> owners.stream().findFirst());
  }

  /** {@code namespace/name}. */
  public String key() {
    return ref.key();
  }

  private static ImmutableSortedMap<String, String> strings(JsonNode map) {
    TreeMap<String, String> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      if (e.getValue().isTextual()) {
        out.put(e.getKey(), e.getValue().asText());
      }
    }
    return ImmutableSortedMap.copyOfSorted(out);
  }
}
