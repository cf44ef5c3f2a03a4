package io.gantry.scheduler.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.sim.NodeSelectorJson;
import io.gantry.scheduler.sim.spec.DraManifests;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Optional;

/**
 * A ResourceClaim's {@code status} in JSON and back (protocols.md §4.3, §4.5 item 6): the
 * allocation's device results and its node selector (for node-local devices one node by {@code
 * metadata.name}, for selected devices their selectors' requirements, as kube-scheduler's {@code
 * createNodeSelector} builds it), and {@code reservedFor}.
 */
final class ClaimStatus {
  static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  private ClaimStatus() {}

  /**
   * The claim's {@code status.allocation}, if any.
   *
   * @throws IllegalArgumentException naming the field when the allocation is not one this scheduler
   *     understands
   */
  static Optional<AllocationResult> allocation(JsonNode claim) {
    JsonNode allocation = claim.path("status").path("allocation");
    if (allocation.isMissingNode() || allocation.isNull()) {
      return Optional.empty();
    }
    ImmutableList.Builder<DeviceResult> devices = ImmutableList.builder();
    JsonNode results = allocation.path("devices").path("results");
    for (int i = 0; i < results.size(); i++) {
      JsonNode r = results.get(i);
      String field = "status.allocation.devices.results[" + i + "]";
      devices.add(
          new DeviceResult(
              text(r, "request", field),
              text(r, "driver", field),
              text(r, "pool", field),
              text(r, "device", field)));
    }
    return Optional.of(
        new AllocationResult(devices.build(), nodeSelector(allocation.path("nodeSelector"))));
  }

  private static ImmutableList<NodeSelectorTerm> nodeSelector(JsonNode selector) {
    if (selector.isMissingNode() || selector.isNull()) {
      return ImmutableList.of();
    }
    return DraManifests.allocationNodeSelector(selector.toString());
  }

  /** The names of the pods in {@code status.reservedFor}. */
  static ImmutableList<String> reservedPods(JsonNode claim) {
    ImmutableList.Builder<String> out = ImmutableList.builder();
    for (JsonNode r : claim.path("status").path("reservedFor")) {
      if (isPod(r)) {
        out.add(r.path("name").asText());
      }
    }
    return out.build();
  }

  /** Whether the cached claim's {@code status.reservedFor} holds the consumer with this UID. */
  static boolean reservesUid(DynamicKubernetesObject claim, String uid) {
    JsonObject status = claim.getRaw().getAsJsonObject("status");
    JsonElement reservedFor = status == null ? null : status.get("reservedFor");
    if (reservedFor == null || !reservedFor.isJsonArray()) {
      return false;
    }
    for (JsonElement r : reservedFor.getAsJsonArray()) {
      JsonElement u = r.isJsonObject() ? r.getAsJsonObject().get("uid") : null;
      if (u != null && u.isJsonPrimitive() && uid.equals(u.getAsString())) {
        return true;
      }
    }
    return false;
  }

  static boolean isPod(JsonNode consumer) {
    return consumer.path("apiGroup").asText("").isEmpty()
        && consumer.path("resource").asText().equals("pods");
  }

  /** The allocation as {@code status.allocation} is written. */
  static ObjectNode json(AllocationResult allocation) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    ArrayNode results = out.putObject("devices").putArray("results");
    for (DeviceResult d : allocation.devices()) {
      results
          .addObject()
          .put("request", d.request())
          .put("driver", d.driver())
          .put("pool", d.pool())
          .put("device", d.device());
    }
    if (!allocation.nodeSelectorTerms().isEmpty()) {
      NodeSelectorJson.writeTerms(
          out.putObject("nodeSelector").putArray("nodeSelectorTerms"),
          allocation.nodeSelectorTerms());
    }
    return out;
  }

  /** A {@code reservedFor} entry for a pod. */
  static ObjectNode podConsumer(String name, String uid) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    return out.put("resource", "pods").put("name", name).put("uid", uid);
  }

  private static String text(JsonNode node, String key, String field) {
    JsonNode v = node.path(key);
    if (!v.isTextual() || v.asText().isEmpty()) {
      throw new IllegalArgumentException(field + "." + key + ": expected a non-empty string");
    }
    return v.asText();
  }
}
