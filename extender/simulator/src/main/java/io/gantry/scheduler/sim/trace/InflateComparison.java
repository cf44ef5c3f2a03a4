package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Throwables;
import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.cycle.SchedulerWiring;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs every policy on every seed's arrivals (the same arrivals for every policy of a seed) and
 * keeps each run's curve. Progress goes to the sink, one line per run (called from the runs'
 * threads, so the sink must be thread-safe).
 */
public final class InflateComparison {
  private final InflateReplay replay;
  private final Consumer<String> progress;

  public InflateComparison(SchedulerWiring wiring, Consumer<String> progress) {
    this.replay = new InflateReplay(wiring);
    this.progress = requireNonNull(progress, "progress is null");
  }

  /**
   * Every policy on every seed, {@code threads} runs at a time (each run is independent, so the
   * results do not depend on how many); results in seed order, then policy order.
   */
  public ImmutableList<InflateResult> run(
      List<TraceNode> nodes,
      List<TraceTask> tasks,
      List<PlacementStrategy> policies,
      List<Long> seeds,
      double ratio,
      int threads) {
    long capacity = new TraceLedger(nodes).capacityMilli();
    FragmentationGauge gauge = new FragmentationGauge(tasks);
    int maxPercent = (int) Math.floor(ratio * 100);
    List<Callable<InflateResult>> runs = new ArrayList<>();
    for (long seed : seeds) {
      ImmutableList<TraceTask> arrivals = InflateArrivals.of(tasks, capacity, ratio, seed);
      for (PlacementStrategy policy : policies) {
        runs.add(() -> runOne(nodes, arrivals, policy, seed, gauge, maxPercent));
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<InflateResult> out = new ArrayList<>();
      for (Future<InflateResult> f : pool.invokeAll(runs)) {
        out.add(f.get());
      }
      return ImmutableList.copyOf(out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwables.throwIfUnchecked(e.getCause());
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private InflateResult runOne(
      List<TraceNode> nodes,
      ImmutableList<TraceTask> arrivals,
      PlacementStrategy policy,
      long seed,
      FragmentationGauge gauge,
      int maxPercent) {
    long start = System.nanoTime();
    ImmutableList<Optional<TraceLedger.Placed>> placements = replay.run(nodes, arrivals, policy);
    ImmutableList<InflatePoint> curve =
        InflateCurve.of(nodes, arrivals, placements, gauge, maxPercent);
    double seconds = (System.nanoTime() - start) / 1e9;
    int placed = (int) placements.stream().filter(Optional::isPresent).count();
    InflateResult r = new InflateResult(policy, seed, arrivals.size(), placed, curve, seconds);
    progress.accept(
        String.format(
            Locale.ROOT,
            "seed %d, %s: %d of %d arrivals placed, %.2f%% unallocated at x=100, %.1f s",
            seed,
            policy.k8sName(),
            placed,
            arrivals.size(),
            curve.size() > 100 ? r.at(100).unallocatedPercent() : Double.NaN,
            seconds));
    return r;
  }
}
