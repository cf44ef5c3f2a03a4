package io.gantry.gpusharing;

/**
 * The smallest and largest per-device GPU memory over a snapshot's GPU nodes (kai-reference §4.1),
 * and the quota conversion of memory requests that uses them (§5.2, §7): a pending request counts
 * toward fair share and queue order at its portion of the smallest device, and toward the job's
 * capacity check at its portion of the largest. Both are 0 without GPU nodes.
 */
public record GpuMemoryRange(long minMib, long maxMib) {
  public GpuMemoryRange {
    if (minMib < 0 || maxMib < minMib) {
      throw new IllegalArgumentException(
          "need 0 <= minMib <= maxMib, got " + minMib + " and " + maxMib);
    }
  }

  /** The range over the memory of each node that has GPUs. */
  public static GpuMemoryRange over(Iterable<Long> gpuNodeMemoriesMib) {
    long min = Long.MAX_VALUE;
    long max = 0;
    for (long m : gpuNodeMemoriesMib) {
      min = Math.min(min, m);
      max = Math.max(max, m);
    }
    return new GpuMemoryRange(min == Long.MAX_VALUE ? 0 : min, max);
  }

  /** GPUs a pending request counts for in fair share and ordering: the smallest device. */
  public GpuAmount requestGpus(GpuSharingRequest request) {
    return request.quotaGpusOn(minMib);
  }

  /** GPUs a pending request counts for in the job's capacity check: the largest device. */
  public GpuAmount capacityCheckGpus(GpuSharingRequest request) {
    return request.quotaGpusOn(maxMib);
  }
}
