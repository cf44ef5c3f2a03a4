package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays an arrival order the paper's way — tasks arrive one at a time, never leave, and a task
 * that cannot be placed is dropped — through the engine's own cycle. The fast path: one {@link
 * SchedulingCycle} with only the {@code allocate} action over a snapshot in which the i-th arrival
 * is a one-pod job created i seconds after the first. KAI's allocate takes jobs of one queue and
 * one priority oldest first, and commits or drops each before the next, so the cycle places each
 * arrival on the cluster that the arrivals before it left, as the protocol does, without building a
 * snapshot and a session per arrival. No placement policy may look at later arrivals: {@link
 * io.gantry.scheduler.plugins.FragmentationAwarePlugin} learns only from pods created no later than
 * the one it places.
 */
public final class InflateReplay {
  /** When the first arrival is created; arrival i comes i seconds later. */
  public static final Instant START = Instant.parse("2023-01-01T00:00:00Z");

  private final SchedulerWiring wiring;

  public InflateReplay(SchedulerWiring wiring) {
    this.wiring = requireNonNull(wiring, "wiring is null");
  }

  /** Where each arrival went, in arrival order; empty for a dropped one. */
  public ImmutableList<Optional<TraceLedger.Placed>> run(
      List<TraceNode> nodes, List<TraceTask> arrivals, PlacementStrategy policy) {
    SchedulingCycle cycle =
        wiring.cycle(
            SchedulerConfig.of(List.of("allocate"), Map.of(), new Placement(policy, policy)));
    List<JobInfo> jobs = new ArrayList<>(arrivals.size());
    for (int i = 0; i < arrivals.size(); i++) {
      jobs.add(TraceCluster.job(i, arrivals.get(i), START.plusSeconds(i), Optional.empty()));
    }
    ClusterSnapshot snapshot =
        new ClusterSnapshot(
            START.plusSeconds(arrivals.size()),
            TraceCluster.nodes(nodes),
            ImmutableList.of(TraceCluster.queue(nodes)),
            ImmutableList.copyOf(jobs));
    CycleResult result = cycle.run(snapshot);
    // looked up by task id, never iterated
    Map<String, TraceLedger.Placed> placed = new HashMap<>();
    String lastJob = "";
    for (Decision d : result.decisions()) {
      if (d instanceof BindDecision bind) {
        if (bind.taskId().compareTo(lastJob) < 0) {
          throw new IllegalStateException(
              "the cycle placed " + bind.taskId() + " after " + lastJob + ": not in arrival order");
        }
        lastJob = bind.taskId();
        placed.put(bind.taskId(), TraceLedger.Placed.of(bind));
      }
    }
    ImmutableList.Builder<Optional<TraceLedger.Placed>> out = ImmutableList.builder();
    for (int i = 0; i < arrivals.size(); i++) {
      out.add(Optional.ofNullable(placed.get(TraceCluster.taskId(i))));
    }
    return out.build();
  }
}
