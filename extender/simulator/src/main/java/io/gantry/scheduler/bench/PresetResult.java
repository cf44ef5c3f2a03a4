package io.gantry.scheduler.bench;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What {@code gantry bench} measured for one workload: the indexed engine over repeated cycles
 * (medians and 99th percentiles) and, when run, the baseline strategy once on the same snapshot.
 * Pods placed counts binds and pipelines; a speed-up ({@code ratio}) is the baseline's cycle time
 * over the indexed engine's median.
 *
 * @param preset the preset's name, or {@code custom}
 * @param spec the workload
 * @param snapshotBuildMillis building the snapshot from the spec, outside the cycle
 * @param podsPlaced pods bound or pipelined in one cycle
 * @param pendingPodsWithFitMessage pods still pending after the cycle that have a fit message
 * @param pendingPodsWithoutFitMessage pods still pending after the cycle without one
 * @param cycleP50Millis median whole-cycle time over the measured cycles
 * @param cycleP99Millis 99th percentile (nearest rank) of the same
 * @param sessionOpenP50Millis median time to open the session (snapshot to session, plugins)
 * @param actionP50Millis median time of each action, by KAI's action name
 * @param firstCycleAllocateMillis the allocate action's time in the first cycle the process ran on
 *     this snapshot (the first warm-up cycle, or the first measured one without warm-up): the
 *     engine before the JIT compiler has warmed it; 0 without an allocate action
 * @param allocateCpuP50Millis median CPU time of the cycle's thread in the allocate action (the JIT
 *     compiler's and the collector's threads not counted): on a shared machine, what the action
 *     cost rather than how long it waited for a core
 * @param allocateAllocatedBytesP50 median bytes the cycle's thread allocated in the allocate action
 *     (the garbage the action leaves to the collector, and what it keeps); empty when the JVM does
 *     not count a thread's allocations
 * @param resultP50Millis median time from the last action to the returned result
 * @param baselineCycleMillis the baseline strategy's cycle time, when it ran
 * @param identicalDecisions whether both strategies returned equal results, when the baseline ran
 * @param peakHeapBytes the most heap in use during a measured cycle (sum of each heap pool's peak)
 * @param maxHeapBytes the heap limit the JVM ran with
 * @param initialHeapBytes the heap the JVM started with ({@code -Xms}): the figures move with it,
 *     since a heap that starts small collects during the cycles until it has grown
 * @param points for {@code scaling}: the result at each cluster size; empty otherwise
 */
public record PresetResult(
    String preset,
    BenchWorkload spec,
    double snapshotBuildMillis,
    long podsPlaced,
    long pendingPodsWithFitMessage,
    long pendingPodsWithoutFitMessage,
    double cycleP50Millis,
    double cycleP99Millis,
    double sessionOpenP50Millis,
    ImmutableSortedMap<String, Double> actionP50Millis,
    double firstCycleAllocateMillis,
    double allocateCpuP50Millis,
    OptionalLong allocateAllocatedBytesP50,
    double resultP50Millis,
    OptionalDouble baselineCycleMillis,
    Optional<Boolean> identicalDecisions,
    long peakHeapBytes,
    long maxHeapBytes,
    long initialHeapBytes,
    ImmutableList<PresetResult> points) {

  public PresetResult {
    requireNonNull(preset, "preset is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(actionP50Millis, "actionP50Millis is null");
    requireNonNull(allocateAllocatedBytesP50, "allocateAllocatedBytesP50 is null");
    requireNonNull(baselineCycleMillis, "baselineCycleMillis is null");
    requireNonNull(identicalDecisions, "identicalDecisions is null");
    requireNonNull(points, "points is null");
  }

  /** Pods placed per second of a whole cycle (median). */
  public double podsPerSecond() {
    return perSecond(podsPlaced, cycleP50Millis);
  }

  /** Pods placed per second of the baseline's cycle. */
  public OptionalDouble baselinePodsPerSecond() {
    return baselineCycleMillis.isPresent()
        ? OptionalDouble.of(perSecond(podsPlaced, baselineCycleMillis.getAsDouble()))
        : OptionalDouble.empty();
  }

  /** How many times faster than the baseline the whole cycle ran. */
  public OptionalDouble ratio() {
    return baselineCycleMillis.isPresent() && cycleP50Millis > 0
        ? OptionalDouble.of(baselineCycleMillis.getAsDouble() / cycleP50Millis)
        : OptionalDouble.empty();
  }

  /** Pods placed per second of the allocate action alone (median). */
  public double allocatePodsPerSecond() {
    Double millis = actionP50Millis.get("allocate");
    return millis == null ? 0 : perSecond(podsPlaced, millis);
  }

  /** Pods placed per second of the allocate action's CPU time on the cycle's thread (median). */
  public double allocateCpuPodsPerSecond() {
    return perSecond(podsPlaced, allocateCpuP50Millis);
  }

  /**
   * Bytes the allocate action allocated per pod placed (median cycle); empty when the JVM does not
   * count allocations or no pod was placed.
   */
  public OptionalDouble allocateBytesPerPod() {
    return allocateAllocatedBytesP50.isPresent() && podsPlaced > 0
        ? OptionalDouble.of((double) allocateAllocatedBytesP50.getAsLong() / podsPlaced)
        : OptionalDouble.empty();
  }

  /** Pods placed per second of the allocate action in the first cycle after start. */
  public double firstCycleAllocatePodsPerSecond() {
    return perSecond(podsPlaced, firstCycleAllocateMillis);
  }

  private static double perSecond(long pods, double millis) {
    return millis <= 0 ? 0 : pods * 1000.0 / millis;
  }
}
