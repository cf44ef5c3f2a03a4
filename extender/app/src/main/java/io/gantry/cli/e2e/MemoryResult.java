package io.gantry.cli.e2e;

/**
 * What the memory preset measured: the heap after a full collection with the fake API server
 * holding the cluster, then again with the scheduler started on it, its caches synced and {@code
 * cycles} cycles run; the difference is the scheduler's.
 *
 * @param preset the preset's name
 * @param nodes nodes created
 * @param runningPods running pods created, each in a one-pod PodGroup
 * @param cycles cycles the scheduler had run when measured
 * @param serverHeapAfterGcBytes the heap after a full collection, the fake server alone
 * @param totalHeapAfterGcBytes the same with the scheduler running
 * @param schedulerHeapAfterGcBytes the difference: what the scheduler holds
 */
public record MemoryResult(
    String preset,
    int nodes,
    int runningPods,
    long cycles,
    long serverHeapAfterGcBytes,
    long totalHeapAfterGcBytes,
    long schedulerHeapAfterGcBytes) {}
