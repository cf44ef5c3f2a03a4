package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.MigProfile;
import java.util.Map;
import java.util.TreeMap;

/**
 * A resource vector: CPU in millicores, memory in bytes, GPUs in hundredths of a device, and any
 * other (extended) resource as an integer count. Every component is exact.
 */
public record Resources(
    long cpuMillis, long memoryBytes, GpuAmount gpus, ImmutableSortedMap<String, Long> extended) {

  public static final Resources ZERO = new Resources(0, 0, GpuAmount.ZERO, ImmutableSortedMap.of());

  public Resources {
    requireNonNull(gpus, "gpus is null");
    requireNonNull(extended, "extended is null");
  }

  public static Resources of(long cpuMillis, long memoryBytes, GpuAmount gpus) {
    return new Resources(cpuMillis, memoryBytes, gpus, ImmutableSortedMap.of());
  }

  public Resources plus(Resources other) {
    // a value: adding nothing (a pod taking nothing from releasing capacity) returns this
    if (other.isNothing()) {
      return this;
    }
    return new Resources(
        cpuMillis + other.cpuMillis,
        memoryBytes + other.memoryBytes,
        gpus.plus(other.gpus),
        combine(extended, other.extended, 1));
  }

  public Resources minus(Resources other) {
    if (other.isNothing()) {
      return this;
    }
    return new Resources(
        cpuMillis - other.cpuMillis,
        memoryBytes - other.memoryBytes,
        gpus.minus(other.gpus),
        combine(extended, other.extended, -1));
  }

  public Resources withGpus(GpuAmount newGpus) {
    return new Resources(cpuMillis, memoryBytes, newGpus, extended);
  }

  /**
   * True when every component of this vector is at most the matching component of {@code other}.
   */
  public boolean fitsIn(Resources other) {
    if (cpuMillis > other.cpuMillis
        || memoryBytes > other.memoryBytes
        || gpus.compareTo(other.gpus) > 0) {
      return false;
    }
    for (Map.Entry<String, Long> e : extended.entrySet()) {
      if (e.getValue() > other.extended.getOrDefault(e.getKey(), 0L)) {
        return false;
      }
    }
    return true;
  }

  /**
   * GPUs this vector counts for in quotas and cluster capacity: whole GPUs plus MIG instances, each
   * the GPU slices of its profile (kai-reference §5.1).
   */
  public GpuAmount quotaGpus() {
    if (extended.isEmpty()) {
      // most requests: no MIG instance to look for, asked for every task of every queue order
      return gpus;
    }
    GpuAmount mig = MigProfile.gpusOf(extended);
    return mig.isZero() ? gpus : gpus.plus(mig);
  }

  public long extended(String name) {
    return extended.getOrDefault(name, 0L);
  }

  /** Zero in every component and without extended resources: a sum with it is the other term. */
  private boolean isNothing() {
    return cpuMillis == 0 && memoryBytes == 0 && gpus.isZero() && extended.isEmpty();
  }

  public boolean isZero() {
    return cpuMillis == 0
        && memoryBytes == 0
        && gpus.isZero()
        && extended.values().stream().allMatch(v -> v == 0);
  }

  private static ImmutableSortedMap<String, Long> combine(
      ImmutableSortedMap<String, Long> a, ImmutableSortedMap<String, Long> b, int sign) {
    if (b.isEmpty()) {
      return a;
    }
    TreeMap<String, Long> out = new TreeMap<>(a);
    b.forEach((k, v) -> out.merge(k, sign * v, Long::sum));
    return ImmutableSortedMap.copyOf(out);
  }
}
