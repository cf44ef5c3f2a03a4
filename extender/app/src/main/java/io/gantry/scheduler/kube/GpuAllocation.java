package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.GpuAmount;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * The GPUs the scheduler gave a pod, written on the pod as annotation {@value #ANNOTATION} before
 * it is bound, for the node agent and for the next snapshot: a small versioned JSON object
 *
 * <pre>{"version":1,"node":"gpu-0","devices":2,"portion":"0.50","gpuGroups":["g1","g2"]}</pre>
 *
 * {@code devices} GPUs on {@code node}, each holding {@code portion} of a device (KAI's {@code
 * receivedGPU.portion}, two decimals, {@code "1.00"} for whole devices); {@code gpuGroups} names
 * the shared device of each (empty for whole devices).
 */
record GpuAllocation(String node, int devices, GpuAmount portion, ImmutableList<String> gpuGroups) {
  static final String ANNOTATION = "gantry.io/gpu-allocation";
  static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  GpuAllocation {
    requireNonNull(node, "node is null");
    requireNonNull(portion, "portion is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
  }

  String toJson() {
    ObjectNode o = JSON.createObjectNode();
    o.put("version", VERSION);
    o.put("node", node);
    o.put("devices", devices);
    o.put("portion", BigDecimal.valueOf(portion.hundredths(), 2).toPlainString());
    ArrayNode groups = o.putArray("gpuGroups");
    gpuGroups.forEach(groups::add);
    return o.toString();
  }

  /** The annotation's value, if it is one this build reads; anything else is ignored. */
  static Optional<GpuAllocation> parse(String json) {
    if (json == null) {
      return Optional.empty();
    }
    try {
      JsonNode o = JSON.readTree(json);
      if (!o.isObject() || o.path("version").asInt() != VERSION || !o.path("node").isTextual()) {
        return Optional.empty();
      }
      ImmutableList.Builder<String> groups = ImmutableList.builder();
      o.path("gpuGroups").forEach(g -> groups.add(g.asText()));
      BigDecimal portion = new BigDecimal(o.path("portion").asText("0"));
      return Optional.of(
          new GpuAllocation(
              o.get("node").asText(),
              o.path("devices").asInt(),
              GpuAmount.ofHundredths(portion.movePointRight(2).longValueExact()),
              groups.build()));
    } catch (JsonProcessingException | NumberFormatException | ArithmeticException e) {
      return Optional.empty();
    }
  }
}
