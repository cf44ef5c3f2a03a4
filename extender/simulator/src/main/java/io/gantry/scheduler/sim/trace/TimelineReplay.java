package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Replays a trace in time: a task arrives at its {@code creation_time} and leaves at its {@code
 * deletion_time} (placed or not); a scheduling cycle of the engine ({@code allocate} only, one
 * queue) runs every {@code period} over the running and pending tasks, each cycle from a fresh
 * snapshot as {@code gantry scheduler} would take it. A cycle in which no task arrived or left
 * since the last one would decide exactly what the last one did, so it is skipped: the replay jumps
 * to the first cycle after the next arrival or departure.
 */
public final class TimelineReplay {
  private final SchedulerWiring wiring;
  private final Consumer<String> progress;

  public TimelineReplay(SchedulerWiring wiring, Consumer<String> progress) {
    this.wiring = requireNonNull(wiring, "wiring is null");
    this.progress = requireNonNull(progress, "progress is null");
  }

  public TimelineResult run(
      List<TraceNode> nodes, List<TraceTask> trace, PlacementStrategy policy, Duration period) {
    long started = System.nanoTime();
    long step = Math.max(1, period.toSeconds());
    SchedulingCycle cycle =
        wiring.cycle(
            SchedulerConfig.of(List.of("allocate"), Map.of(), new Placement(policy, policy)));
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < trace.size(); i++) {
      order.add(i);
    }
    order.sort(
        Comparator.<Integer>comparingLong(i -> trace.get(i).creationSeconds())
            .thenComparingInt(i -> i));
    TraceLedger ledger = new TraceLedger(nodes);
    ImmutableList<NodeInfo> nodeInfos = TraceCluster.nodes(nodes);
    QueueInfo queue = TraceCluster.queue(nodes);
    TreeMap<Integer, TraceLedger.Placed> running = new TreeMap<>();
    TreeMap<Integer, Long> pending = new TreeMap<>();
    // each task's job as the snapshot shows it, kept while its status holds
    TreeMap<Integer, JobInfo> jobs = new TreeMap<>();
    List<TimelineResult.Sample> samples = new ArrayList<>();
    List<Long> delays = new ArrayList<>();
    int neverPlaced = 0;
    int cycles = 0;
    int next = 0;
    long origin = trace.get(order.get(0)).creationSeconds();
    long now = origin;
    while (true) {
      // departures up to now: running tasks free their resources, pending ones are never placed
      for (Integer i : new ArrayList<>(running.keySet())) {
        if (leftBy(trace.get(i), now)) {
          ledger.remove(trace.get(i), running.remove(i));
          jobs.remove(i);
        }
      }
      for (Integer i : new ArrayList<>(pending.keySet())) {
        if (leftBy(trace.get(i), now)) {
          pending.remove(i);
          jobs.remove(i);
          neverPlaced++;
        }
      }
      while (next < order.size() && trace.get(order.get(next)).creationSeconds() <= now) {
        int i = order.get(next++);
        if (leftBy(trace.get(i), now)) {
          neverPlaced++;
        } else {
          pending.put(i, trace.get(i).creationSeconds());
          jobs.put(i, job(trace, i, Optional.empty()));
        }
      }
      if (!pending.isEmpty()) {
        cycles++;
        ClusterSnapshot snapshot =
            new ClusterSnapshot(
                InflateReplay.START.plusSeconds(now),
                nodeInfos,
                ImmutableList.of(queue),
                ImmutableList.copyOf(jobs.values()));
        for (Decision d : cycle.run(snapshot).decisions()) {
          if (d instanceof BindDecision bind) {
            int i = arrival(bind.taskId());
            TraceLedger.Placed placed = TraceLedger.Placed.of(bind);
            ledger.place(trace.get(i), placed);
            running.put(i, placed);
            jobs.put(i, job(trace, i, Optional.of(placed)));
            delays.add(now - pending.remove(i));
          }
        }
      }
      samples.add(
          new TimelineResult.Sample(
              now - origin, 100.0 * ledger.allocatedMilli() / ledger.capacityMilli()));
      long event = Long.MAX_VALUE;
      if (next < order.size()) {
        event = trace.get(order.get(next)).creationSeconds();
      }
      for (Integer i : running.keySet()) {
        event = Math.min(event, deletion(trace.get(i)));
      }
      for (Integer i : pending.keySet()) {
        event = Math.min(event, deletion(trace.get(i)));
      }
      if (event == Long.MAX_VALUE) {
        neverPlaced += pending.size();
        break;
      }
      // the first cycle at or after the event, on the period's grid
      now = origin + Math.max(now - origin + step, ceilDiv(event - origin, step) * step);
      if (cycles % 1000 == 0 && cycles > 0) {
        progress.accept(
            String.format(
                Locale.ROOT,
                "%s: %d cycles, %d of %d tasks arrived",
                policy.k8sName(),
                cycles,
                next,
                trace.size()));
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    progress.accept(
        String.format(
            Locale.ROOT,
            "%s: %d cycles, %d tasks never placed, %.1f s",
            policy.k8sName(),
            cycles,
            neverPlaced,
            seconds));
    return new TimelineResult(
        policy,
        ImmutableList.copyOf(samples),
        ImmutableList.copyOf(delays),
        trace.size(),
        neverPlaced,
        cycles,
        seconds);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private static boolean leftBy(TraceTask task, long now) {
    return deletion(task) <= now;
  }

  private static long deletion(TraceTask task) {
    return task.deletionSeconds().orElse(Long.MAX_VALUE);
  }

  private static int arrival(String taskId) {
    String job = taskId.substring(TraceCluster.NAMESPACE.length() + 3, taskId.lastIndexOf('/'));
    return Integer.parseInt(job);
  }

  private static JobInfo job(List<TraceTask> trace, int i, Optional<TraceLedger.Placed> placed) {
    return TraceCluster.job(
        i, trace.get(i), InflateReplay.START.plusSeconds(trace.get(i).creationSeconds()), placed);
  }
}
