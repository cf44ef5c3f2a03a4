package io.gantry.scheduler.testing;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.GpuTopology;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Quantity;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds {@link NodeInfo}s for engine tests: {@code Nodes.node("n1").gpus(8).build()}. Defaults: no
 * GPUs, 64 CPUs, 512Gi memory, 81920 MiB synced GPU memory, 110 pods, ready and schedulable, with
 * the {@code kubernetes.io/hostname} label set to the node's name.
 */
public final class Nodes {
  private Nodes() {}

  public static Builder node(String name) {
    return new Builder(name);
  }

  public static final class Builder {
    private final String name;
    private final TreeMap<String, String> labels = new TreeMap<>();
    private final List<Taint> taints = new ArrayList<>();
    private final TreeMap<String, Long> extended = new TreeMap<>();
    private long gpus;
    private long cpuMillis = 64_000;
    private long memoryBytes = 512L << 30;
    private long gpuMemoryMib = 81_920;
    private boolean gpuMemorySynced = true;
    private int maxPods = 110;
    private boolean unschedulable;
    private boolean ready = true;
    private GpuTopology gpuTopology = GpuTopology.NONE;

    private Builder(String name) {
      this.name = name;
      labels.put(NodeInfo.HOSTNAME_LABEL, name);
    }

    public Builder gpus(long gpus) {
      this.gpus = gpus;
      return this;
    }

    /** A Kubernetes quantity of cores: {@code "64"}, {@code "500m"}. */
    public Builder cpu(String cores) {
      this.cpuMillis = Quantity.toMillis(Quantity.parse(cores));
      return this;
    }

    public Builder cpuMillis(long cpuMillis) {
      this.cpuMillis = cpuMillis;
      return this;
    }

    /** A Kubernetes quantity of bytes: {@code "512Gi"}. */
    public Builder memory(String bytes) {
      this.memoryBytes = Quantity.toWhole(Quantity.parse(bytes));
      return this;
    }

    public Builder label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    public Builder labels(Map<String, String> more) {
      labels.putAll(more);
      return this;
    }

    public Builder taints(Taint... more) {
      taints.addAll(List.of(more));
      return this;
    }

    public Builder taint(String key, String value, TaintEffect effect) {
      return taints(new Taint(key, value, effect));
    }

    public Builder extended(String resource, long count) {
      extended.put(resource, count);
      return this;
    }

    public Builder maxPods(int maxPods) {
      this.maxPods = maxPods;
      return this;
    }

    public Builder gpuMemoryMib(long gpuMemoryMib) {
      this.gpuMemoryMib = gpuMemoryMib;
      return this;
    }

    /** The GPU memory label is missing or not yet synced (memory is then reported as 0). */
    public Builder gpuMemoryUnsynced() {
      this.gpuMemorySynced = false;
      this.gpuMemoryMib = 0;
      return this;
    }

    /** Cordoned ({@code spec.unschedulable: true}). */
    public Builder cordoned() {
      this.unschedulable = true;
      return this;
    }

    public Builder notReady() {
      this.ready = false;
      return this;
    }

    /** GPU interconnect domains: groups of device indices, {@code List.of(List.of(0, 1), …)}. */
    public Builder gpuTopology(List<List<Integer>> domains) {
      this.gpuTopology = GpuTopology.of(domains);
      return this;
    }

    public NodeInfo build() {
      return new NodeInfo(
          name,
          ImmutableSortedMap.copyOf(labels),
          ImmutableList.copyOf(taints),
          new Resources(
              cpuMillis,
              memoryBytes,
              GpuAmount.ofDevices(gpus),
              ImmutableSortedMap.copyOf(extended)),
          gpuMemoryMib,
          gpuMemorySynced,
          maxPods,
          unschedulable,
          ready,
          gpuTopology);
    }
  }
}
