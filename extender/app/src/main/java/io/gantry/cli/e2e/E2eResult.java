package io.gantry.cli.e2e;

import java.util.SortedMap;

/**
 * What one end-to-end preset measured.
 *
 * @param preset the preset's name
 * @param nodes nodes created
 * @param pods pending pods created
 * @param allBound every pod was bound before the time limit
 * @param boundPods pods bound
 * @param podsPerSecond pods bound a second, from the scheduler's start to the last bind
 * @param startToFirstBindMillis from the scheduler's start to the first pod bound
 * @param createdToBoundP50Millis median, over the pods, of creation to bound
 * @param createdToBoundP99Millis the 99th percentile of the same
 * @param cycles scheduling cycles the scheduler ran
 * @param requests the scheduler's requests by {@code "verb resource"}
 * @param writesPerPod the scheduler's writes (create, update, patch, delete) per bound pod
 * @param peakHeapBytes the JVM's heap at its peak during the run (scheduler and fake API server)
 * @param processCpuSeconds CPU time of the whole process during the run
 * @param fakeServerCpuSeconds CPU time of the fake API server's request threads during the run
 * @param ceilingPodsPerSecond the same bindings and nothing else, posted by the same client
 *     machinery with as many threads as the scheduler binds with, against a fresh server
 * @param ceilingAllBound every binding of the ceiling run succeeded
 * @param ratio {@code podsPerSecond / ceilingPodsPerSecond}
 */
public record E2eResult(
    String preset,
    int nodes,
    int pods,
    boolean allBound,
    int boundPods,
    double podsPerSecond,
    double startToFirstBindMillis,
    double createdToBoundP50Millis,
    double createdToBoundP99Millis,
    long cycles,
    SortedMap<String, Integer> requests,
    double writesPerPod,
    long peakHeapBytes,
    double processCpuSeconds,
    double fakeServerCpuSeconds,
    double ceilingPodsPerSecond,
    boolean ceilingAllBound,
    double ratio) {}
