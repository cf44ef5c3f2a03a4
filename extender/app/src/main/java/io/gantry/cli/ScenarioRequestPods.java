package io.gantry.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.RequestPodGrouper;
import io.gantry.extender.wire.RequestPod;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.sim.ScenarioStart;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.util.List;

/**
 * Groups the pods of {@code gantry extender --scenario}'s requests that are not in the file: each
 * is read as a {@code v1 Pod} manifest listed last under the scenario's {@code workloads}, so the
 * scenario reader's podgrouper rules make it a PodGroup ({@code pg-<pod>-<uid>}, minMember 1, as
 * KAI's for a pod without owners) and its requests are read as for any pod of the file. Only what
 * decides placement is taken from the request's pod; what the API server adds (status, {@code
 * spec.priority}, volumes) is left out.
 */
final class ScenarioRequestPods implements RequestPodGrouper {
  static final String SOURCE = "the pods of requests";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ImmutableSet<String> SPEC_KEYS =
      ImmutableSet.of(
          "nodeSelector",
          "tolerations",
          "affinity",
          "priorityClassName",
          "schedulingGates",
          "topologySpreadConstraints",
          "resourceClaims",
          "overhead");
  private static final ImmutableSet<String> CONTAINER_KEYS =
      ImmutableSet.of("name", "resources", "restartPolicy");

  private final ScenarioSpec spec;

  ScenarioRequestPods(ScenarioSpec spec) {
    this.spec = requireNonNull(spec, "spec is null");
  }

  @Override
  public ClusterSnapshot startWith(List<RequestPod> pods) {
    ArrayNode manifests = JSON.createArrayNode();
    for (RequestPod pod : pods) {
      manifests.add(manifest(pod));
    }
    try {
      return ScenarioStart.of(ScenarioLoader.withWorkloads(spec, SOURCE, manifests.toString()))
          .snapshot();
    } catch (ScenarioException e) {
      // the field within the pod's manifest: the index in the list of grouped pods says nothing
      String field = e.field().replaceFirst("^\\[\\d+\\]\\.?", "");
      throw new IllegalArgumentException(
          field.isEmpty() ? e.problem() : field + ": " + e.problem(), e);
    }
  }

  /** The pod as its author would have written it. */
  static ObjectNode manifest(RequestPod pod) {
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = out.putObject("metadata");
    meta.put("name", pod.ref().name()).put("namespace", pod.ref().namespace());
    if (!pod.ref().uid().isEmpty()) {
      meta.put("uid", pod.ref().uid());
    }
    meta.set("labels", JSON.valueToTree(pod.labels()));
    meta.set("annotations", JSON.valueToTree(pod.annotations()));
    JsonNode from = pod.object().path("spec");
    ObjectNode spec = out.putObject("spec");
    spec.set("containers", containers(from.path("containers")));
    if (from.path("initContainers").isArray()) {
      spec.set("initContainers", containers(from.path("initContainers")));
    }
    for (String key : SPEC_KEYS) {
      if (from.hasNonNull(key)) {
        spec.set(key, from.get(key));
      }
    }
    return out;
  }

  private static ArrayNode containers(JsonNode from) {
    ArrayNode out = JSON.createArrayNode();
    for (JsonNode c : from) {
      ObjectNode container = out.addObject();
      for (String key : CONTAINER_KEYS) {
        if (c.hasNonNull(key)) {
          container.set(key, c.get(key));
        }
      }
    }
    return out;
  }
}
