package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.placement.Taint;

/**
 * One node as the snapshot saw it. {@code allocatable.gpus()} counts the whole GPU devices the node
 * offers for scheduling; {@code gpuMemoryMib} is the per-device memory label (0 when missing);
 * {@code gpuTopology} its GPU interconnect domains, {@link GpuTopology#NONE} when it publishes
 * none.
 */
public record NodeInfo(
    String name,
    ImmutableSortedMap<String, String> labels,
    ImmutableList<Taint> taints,
    Resources allocatable,
    long gpuMemoryMib,
    boolean gpuMemorySynced,
    int maxPods,
    boolean unschedulable,
    boolean ready,
    GpuTopology gpuTopology) {

  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  public NodeInfo {
    requireNonNull(name, "name is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(taints, "taints is null");
    requireNonNull(allocatable, "allocatable is null");
    requireNonNull(gpuTopology, "gpuTopology is null");
    if (maxPods < 0) {
      throw new IllegalArgumentException("maxPods must be >= 0, got " + maxPods);
    }
  }

  /** A node without GPU interconnect domains. */
  public NodeInfo(
      String name,
      ImmutableSortedMap<String, String> labels,
      ImmutableList<Taint> taints,
      Resources allocatable,
      long gpuMemoryMib,
      boolean gpuMemorySynced,
      int maxPods,
      boolean unschedulable,
      boolean ready) {
    this(
        name,
        labels,
        taints,
        allocatable,
        gpuMemoryMib,
        gpuMemorySynced,
        maxPods,
        unschedulable,
        ready,
        GpuTopology.NONE);
  }

  public int gpuCount() {
    return Math.toIntExact(allocatable.gpus().wholeDevices());
  }
}
