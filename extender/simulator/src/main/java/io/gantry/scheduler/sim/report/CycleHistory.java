package io.gantry.scheduler.sim.report;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.NodeOutcome;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.sim.CycleObserver;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What each cycle of a simulation left, for the HTML report: per queue its fair share and
 * allocation in GPUs, the cluster's GPU devices in use and in all, and each job's state. Kept in
 * cycle order; queues and jobs in the cycle result's order.
 */
public final class CycleHistory implements CycleObserver {
  /** A job's state in one cycle, first match: evicted, pipelined, running, pending, else done. */
  public enum JobState {
    /** The cycle evicted some of its pods. */
    EVICTED,
    /** Some of its pods wait, pipelined, for resources being released. */
    PIPELINED,
    /** Some of its pods are placed (binding, bound, running). */
    RUNNING,
    /** Its pods wait. */
    PENDING,
    /** Nothing placed or waiting: its pods finished or are being released. */
    DONE;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One queue in one cycle, in GPU devices. */
  public record QueuePoint(double fairShareGpus, double allocatedGpus) {}

  /** One cycle. */
  public record Cycle(
      int cycle,
      ImmutableMap<String, QueuePoint> queues,
      long usedGpus,
      long totalGpus,
      ImmutableMap<String, JobState> jobs) {}

  private final List<Cycle> cycles = new ArrayList<>();

  @Override
  public void cycleRun(int cycle, int total, CycleResult result) {
    ImmutableMap.Builder<String, QueuePoint> queues = ImmutableMap.builder();
    for (QueueOutcome q : result.queues()) {
      queues.put(q.name(), new QueuePoint(q.fairShare().gpus(), q.allocated().gpus()));
    }
    long used = 0;
    long all = 0;
    for (NodeOutcome n : result.nodes()) {
      used += n.usedGpus();
      all += (long) n.idleGpus() + n.releasingGpus() + n.usedGpus();
    }
    Set<String> evicted = new HashSet<>();
    for (Decision d : result.decisions()) {
      if (d.kind() == Decision.Kind.EVICT) {
        evicted.add(d.taskId());
      }
    }
    ImmutableMap.Builder<String, JobState> jobs = ImmutableMap.builder();
    for (JobOutcome j : result.jobs()) {
      jobs.put(j.jobId(), state(j, evicted));
    }
    cycles.add(new Cycle(cycle, queues.buildKeepingLast(), used, all, jobs.buildKeepingLast()));
  }

  private static JobState state(JobOutcome job, Set<String> evicted) {
    boolean pipelined = false;
    boolean running = false;
    boolean pending = false;
    for (TaskOutcome t : job.tasks()) {
      if (evicted.contains(t.taskId())) {
        return JobState.EVICTED;
      }
      pipelined |= t.status() == TaskStatus.PIPELINED;
      running |= t.status().isAllocated();
      pending |= t.status() == TaskStatus.PENDING || t.status() == TaskStatus.GATED;
    }
    if (pipelined) {
      return JobState.PIPELINED;
    }
    if (running) {
      return JobState.RUNNING;
    }
    return pending ? JobState.PENDING : JobState.DONE;
  }

  public ImmutableList<Cycle> cycles() {
    return ImmutableList.copyOf(cycles);
  }
}
