package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A resource vector: CPU in millicores, memory in bytes, GPUs as whole-or-fractional devices with
 * two decimals of precision, and any other (extended) resource as an integer count.
 */
public record Resources(
    long cpuMillis, long memoryBytes, double gpus, ImmutableSortedMap<String, Long> extended) {

  public static final Resources ZERO = new Resources(0, 0, 0, ImmutableSortedMap.of());

  public Resources {
    requireNonNull(extended, "extended is null");
    gpus = roundGpus(gpus);
  }

  public static Resources of(long cpuMillis, long memoryBytes, double gpus) {
    return new Resources(cpuMillis, memoryBytes, gpus, ImmutableSortedMap.of());
  }

  /** GPUs carry two decimals; rounding here keeps sums of 0.3 + 0.51 exact enough to compare. */
  public static double roundGpus(double gpus) {
    return Math.round(gpus * 100.0) / 100.0;
  }

  public Resources plus(Resources other) {
    return new Resources(
        cpuMillis + other.cpuMillis,
        memoryBytes + other.memoryBytes,
        gpus + other.gpus,
        combine(extended, other.extended, 1));
  }

  public Resources minus(Resources other) {
    return new Resources(
        cpuMillis - other.cpuMillis,
        memoryBytes - other.memoryBytes,
        gpus - other.gpus,
        combine(extended, other.extended, -1));
  }

  public Resources withGpus(double newGpus) {
    return new Resources(cpuMillis, memoryBytes, newGpus, extended);
  }

  /**
   * True when every component of this vector is at most the matching component of {@code other}.
   */
  public boolean fitsIn(Resources other) {
    if (cpuMillis > other.cpuMillis
        || memoryBytes > other.memoryBytes
        || gpus > other.gpus + 1e-9) {
      return false;
    }
    for (Map.Entry<String, Long> e : extended.entrySet()) {
      if (e.getValue() > other.extended.getOrDefault(e.getKey(), 0L)) {
        return false;
      }
    }
    return true;
  }

  public long extended(String name) {
    return extended.getOrDefault(name, 0L);
  }

  public boolean isZero() {
    return cpuMillis == 0
        && memoryBytes == 0
        && gpus == 0
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
