package io.gantry.scheduler.bench;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.TaskStatus;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Runs the real engine in-process on a generated snapshot: warm-up cycles, then measured cycles of
 * the indexed engine (each a fresh session on the same snapshot), then — unless turned off — one
 * cycle of the baseline strategy, whose result must equal the indexed engine's. Progress goes to
 * the given sink as one line per step.
 */
public final class BenchRunner {
  /** How many cycles to run, and whether to run the baseline. */
  public record Options(int warmupCycles, int measuredCycles, boolean baseline) {
    public Options {
      if (warmupCycles < 0) {
        throw new IllegalArgumentException("warmup must be at least 0, got " + warmupCycles);
      }
      if (measuredCycles < 1) {
        throw new IllegalArgumentException("cycles must be at least 1, got " + measuredCycles);
      }
    }
  }

  private final SchedulerWiring wiring;
  private final Consumer<String> progress;

  public BenchRunner(SchedulerWiring wiring, Consumer<String> progress) {
    this.wiring = requireNonNull(wiring, "wiring is null");
    this.progress = requireNonNull(progress, "progress is null");
  }

  /**
   * Measures one workload under {@code config}.
   *
   * @throws io.gantry.scheduler.api.config.ConfigException if {@code config} is not valid here
   */
  public PresetResult run(
      String preset, BenchWorkload spec, SchedulerConfig config, Options options) {
    SchedulingCycle indexed = wiring.cycle(config, SearchStrategy.INDEXED);
    SchedulingCycle baseline = wiring.cycle(config, SearchStrategy.BASELINE);
    progress.accept(
        preset
            + ": building the snapshot ("
            + spec.nodes()
            + " nodes, "
            + spec.pendingPods()
            + " pending pods, "
            + spec.runningPods()
            + " running pods)");
    long buildStart = System.nanoTime();
    ClusterSnapshot snapshot = WorkloadGenerator.generate(spec);
    double buildMillis = millis(System.nanoTime() - buildStart);
    double firstCycleAllocateMillis = -1;
    for (int i = 1; i <= options.warmupCycles(); i++) {
      CycleTimer timer = new CycleTimer();
      indexed.run(snapshot, timer);
      CycleTimer.Timing timing = timer.finish();
      if (firstCycleAllocateMillis < 0) {
        firstCycleAllocateMillis = allocateMillis(timing);
      }
      progress.accept(
          preset
              + ": warm-up cycle "
              + i
              + "/"
              + options.warmupCycles()
              + ": "
              + format(millis(timing.totalNanos()))
              + " ms (allocate "
              + format(allocateMillis(timing))
              + " ms)");
    }
    List<CycleTimer.Timing> timings = new ArrayList<>();
    long peakHeap = 0;
    CycleResult result = null;
    for (int i = 1; i <= options.measuredCycles(); i++) {
      System.gc();
      resetHeapPeaks();
      CycleTimer timer = new CycleTimer();
      CycleResult run = indexed.run(snapshot, timer);
      CycleTimer.Timing timing = timer.finish();
      peakHeap = Math.max(peakHeap, heapPeak());
      timings.add(timing);
      if (firstCycleAllocateMillis < 0) {
        firstCycleAllocateMillis = allocateMillis(timing);
      }
      if (result != null && !result.equals(run)) {
        throw new IllegalStateException(
            preset + ": two cycles on the same snapshot returned different results");
      }
      result = run;
      progress.accept(
          preset
              + ": cycle "
              + i
              + "/"
              + options.measuredCycles()
              + ": "
              + format(millis(timing.totalNanos()))
              + " ms");
    }
    OptionalDouble baselineMillis = OptionalDouble.empty();
    Optional<Boolean> identical = Optional.empty();
    if (options.baseline()) {
      progress.accept(preset + ": baseline cycle (scores and sorts every node for every task)");
      CycleTimer timer = new CycleTimer();
      CycleResult base = baseline.run(snapshot, timer);
      baselineMillis = OptionalDouble.of(millis(timer.finish().totalNanos()));
      identical = Optional.of(base.equals(result));
      progress.accept(
          preset
              + ": baseline cycle: "
              + format(baselineMillis.getAsDouble())
              + " ms, identical results: "
              + identical.get());
    }
    return new PresetResult(
        preset,
        spec,
        buildMillis,
        placed(result),
        pending(result, true),
        pending(result, false),
        percentile(timings, CycleTimer.Timing::totalNanos, 50),
        percentile(timings, CycleTimer.Timing::totalNanos, 99),
        percentile(timings, CycleTimer.Timing::sessionOpenNanos, 50),
        actions(timings),
        firstCycleAllocateMillis,
        percentile(timings, t -> t.actionCpuNanos().getOrDefault("allocate", 0L), 50),
        allocatedBytesMedian(timings),
        percentile(timings, CycleTimer.Timing::resultNanos, 50),
        baselineMillis,
        identical,
        peakHeap,
        Runtime.getRuntime().maxMemory(),
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getInit(),
        ImmutableList.of());
  }

  /**
   * The {@code scaling} preset: {@code preset}'s workload at each size of {@link
   * BenchPreset#SCALING_NODES}; the result's figures are the largest size's, its points every
   * size's.
   */
  public PresetResult runScaling(SchedulerConfig config, Options options) {
    ImmutableList.Builder<PresetResult> points = ImmutableList.builder();
    PresetResult last = null;
    for (int nodes : BenchPreset.SCALING_NODES) {
      String name = BenchPreset.SCALING.presetName() + "-" + (nodes / 1000) + "k";
      last = run(name, BenchPreset.scalingSpec(nodes), config, options);
      points.add(last);
    }
    requireNonNull(last, "no scaling sizes");
    return withPoints(BenchPreset.SCALING.presetName(), last, points.build());
  }

  /**
   * The {@code topology-rack-1k} preset: its rack-constrained workload, then the same workload with
   * no topology, in one run; the result's figures are the constrained run's, its points both, and
   * the progress line says how many times longer the constrained cycle took.
   */
  public PresetResult runTopology(BenchWorkload spec, SchedulerConfig config, Options options) {
    String name = BenchPreset.TOPOLOGY_RACK_1K.presetName();
    PresetResult constrained = run(name + "-rack", spec, config, options);
    PresetResult free = run(name + "-none", spec.withTopologyLevels(0), config, options);
    progress.accept(
        name
            + ": cycle p50 "
            + format(constrained.cycleP50Millis())
            + " ms with the rack constraint, "
            + format(free.cycleP50Millis())
            + " ms without: "
            + String.format(
                Locale.ROOT, "%.2f", constrained.cycleP50Millis() / free.cycleP50Millis())
            + "×");
    return withPoints(name, constrained, ImmutableList.of(constrained, free));
  }

  /** {@code last}'s figures under {@code name}, with {@code points}. */
  private static PresetResult withPoints(
      String name, PresetResult last, ImmutableList<PresetResult> points) {
    return new PresetResult(
        name,
        last.spec(),
        last.snapshotBuildMillis(),
        last.podsPlaced(),
        last.pendingPodsWithFitMessage(),
        last.pendingPodsWithoutFitMessage(),
        last.cycleP50Millis(),
        last.cycleP99Millis(),
        last.sessionOpenP50Millis(),
        last.actionP50Millis(),
        last.firstCycleAllocateMillis(),
        last.allocateCpuP50Millis(),
        last.allocateAllocatedBytesP50(),
        last.resultP50Millis(),
        last.baselineCycleMillis(),
        last.identicalDecisions(),
        last.peakHeapBytes(),
        last.maxHeapBytes(),
        last.initialHeapBytes(),
        points);
  }

  /** The allocate action's time in one cycle; 0 when the configuration has none. */
  private static double allocateMillis(CycleTimer.Timing timing) {
    return millis(timing.actionNanos().getOrDefault("allocate", 0L));
  }

  private static long placed(CycleResult result) {
    return result.decisions().stream()
        .map(Decision::kind)
        .filter(k -> k == Decision.Kind.BIND || k == Decision.Kind.PIPELINE)
        .count();
  }

  private static long pending(CycleResult result, boolean withMessage) {
    long count = 0;
    for (JobOutcome job : result.jobs()) {
      for (TaskOutcome task : job.tasks()) {
        if (task.status() == TaskStatus.PENDING && task.fitMessage().isPresent() == withMessage) {
          count++;
        }
      }
    }
    return count;
  }

  private static ImmutableSortedMap<String, Double> actions(List<CycleTimer.Timing> timings) {
    TreeMap<String, Double> out = new TreeMap<>();
    for (String action : timings.get(0).actionNanos().keySet()) {
      out.put(action, percentile(timings, t -> t.actionNanos().getOrDefault(action, 0L), 50));
    }
    return ImmutableSortedMap.copyOf(out);
  }

  /** The allocate action's median allocated bytes; empty when the JVM did not count them. */
  private static OptionalLong allocatedBytesMedian(List<CycleTimer.Timing> timings) {
    if (timings.get(0).actionAllocatedBytes().isEmpty()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(
        nearestRank(
            timings, t -> t.actionAllocatedBytes().orElseThrow().getOrDefault("allocate", 0L), 50));
  }

  /** Nearest-rank percentile, in milliseconds. */
  static double percentile(
      List<CycleTimer.Timing> timings, ToLongFunction<CycleTimer.Timing> nanos, int percent) {
    return millis(nearestRank(timings, nanos, percent));
  }

  private static long nearestRank(
      List<CycleTimer.Timing> timings, ToLongFunction<CycleTimer.Timing> value, int percent) {
    long[] values = timings.stream().mapToLong(value).toArray();
    Arrays.sort(values);
    int rank = (int) Math.ceil(percent / 100.0 * values.length);
    return values[Math.max(0, rank - 1)];
  }

  private static void resetHeapPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  private static long heapPeak() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  static String format(double millis) {
    return String.format(Locale.ROOT, "%.1f", millis);
  }
}
