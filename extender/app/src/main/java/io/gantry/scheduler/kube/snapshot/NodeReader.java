package io.gantry.scheduler.kube.snapshot;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.GpuTopology;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Resources;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import java.util.Map;

/**
 * A Node as the engine's {@link NodeInfo}: allocatable resources ({@code pods} as the pod limit,
 * 110 when missing), labels and taints, cordon and readiness, and the per-device GPU memory from
 * the {@value #GPU_MEMORY_LABEL} label (MiB; a value of 1 TiB-in-MiB or more is read as bytes, as
 * KAI does). A node without the label is not GPU-memory synced. Its GPU interconnect domains come
 * from the device agent's inventory annotation ({@link GpuInventoryReader}).
 */
final class NodeReader {
  static final String GPU_MEMORY_LABEL = "nvidia.com/gpu.memory";
  static final int DEFAULT_MAX_PODS = 110;
  private static final long MIB_PER_TIB = 1L << 20;

  private NodeReader() {}

  static NodeInfo read(V1Node node, GpuInventoryReader inventories) {
    Map<String, String> labels =
        node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    Map<String, Quantity> allocatable =
        node.getStatus() == null || node.getStatus().getAllocatable() == null
            ? Map.of()
            : node.getStatus().getAllocatable();
    Resources resources = KubeQuantities.resources(allocatable);
    Quantity pods = allocatable.get(KubeQuantities.PODS);
    int maxPods =
        pods == null
            ? DEFAULT_MAX_PODS
            : (int) Math.min(Integer.MAX_VALUE, KubeQuantities.whole(pods.getNumber()));
    long gpuMemoryMib = 0;
    String memory = labels.get(GPU_MEMORY_LABEL);
    if (memory != null) {
      try {
        long value = Long.parseLong(memory.trim());
        gpuMemoryMib = value >= MIB_PER_TIB ? value / (1L << 20) : value;
      } catch (NumberFormatException e) {
        gpuMemoryMib = 0;
      }
    }
    boolean ready = false;
    if (node.getStatus() != null && node.getStatus().getConditions() != null) {
      for (V1NodeCondition c : node.getStatus().getConditions()) {
        if ("Ready".equals(c.getType())) {
          ready = "True".equals(c.getStatus());
        }
      }
    }
    return new NodeInfo(
        node.getMetadata().getName(),
        ImmutableSortedMap.copyOf(labels),
        node.getSpec() == null
            ? com.google.common.collect.ImmutableList.of()
            : PodPlacement.taints(node.getSpec().getTaints()),
        resources,
        gpuMemoryMib,
        gpuMemoryMib > 0,
        Math.max(0, maxPods),
        node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable()),
        ready,
        inventories.topology(node, Math.toIntExact(resources.gpus().wholeDevices())));
  }

  /**
   * The node with what pods outside the snapshot hold taken off its allocatable. When they hold
   * GPUs, which devices is not known, so the node is scheduled by count, without its domains.
   */
  static NodeInfo minus(NodeInfo node, Resources used, int pods) {
    if (used.isZero() && pods == 0) {
      return node;
    }
    return new NodeInfo(
        node.name(),
        node.labels(),
        node.taints(),
        nonNegative(node.allocatable().minus(used)),
        node.gpuMemoryMib(),
        node.gpuMemorySynced(),
        Math.max(0, node.maxPods() - pods),
        node.unschedulable(),
        node.ready(),
        used.gpus().isPositive() ? GpuTopology.NONE : node.gpuTopology());
  }

  private static Resources nonNegative(Resources r) {
    java.util.TreeMap<String, Long> extended = new java.util.TreeMap<>();
    r.extended().forEach((k, v) -> extended.put(k, Math.max(0, v)));
    return new Resources(
        Math.max(0, r.cpuMillis()),
        Math.max(0, r.memoryBytes()),
        r.gpus().max(io.gantry.gpusharing.GpuAmount.ZERO),
        ImmutableSortedMap.copyOf(extended));
  }
}
