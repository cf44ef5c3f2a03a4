package io.gantry.nodecommon.nvml;

import com.google.common.collect.ImmutableSortedSet;

/**
 * Which XIDs (NVIDIA driver error codes, reported through nvmlEventTypeXidCriticalError) make a GPU
 * unhealthy: every XID except those an application causes and the GPU survives, the same list
 * NVIDIA's Kubernetes device plugin skips by default — 13 (graphics engine exception), 31 (GPU
 * memory page fault), 43 (GPU stopped processing), 45 (preemptive cleanup after a previous error),
 * 68 (video processor exception) and 109 (context switch timeout). So 48 (double-bit ECC error),
 * 62, 64, 74 (NVLink error), 79 (GPU fell off the bus), 95 (uncontained ECC error) and XIDs the
 * driver does not name (999) are critical.
 */
public final class CriticalXids {
  /** The application XIDs that leave the GPU healthy. */
  public static final ImmutableSortedSet<Long> APPLICATION_XIDS =
      ImmutableSortedSet.of(13L, 31L, 43L, 45L, 68L, 109L);

  private CriticalXids() {}

  public static boolean isCritical(long xid) {
    return !APPLICATION_XIDS.contains(xid);
  }
}
