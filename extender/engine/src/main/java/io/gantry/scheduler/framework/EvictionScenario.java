package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One simulated eviction scenario, as validators see it: the preemptor, the tasks of it this
 * scenario places and what they count for in its queue (GPUs, CPU, memory), and the victim tasks in
 * the order they were chosen. After the simulation a victim is {@code Releasing} (evicted), or
 * {@code Pipelined} elsewhere or back to running (re-placed by the simulation). With {@code
 * allowConsolidatingReclaim} (KAI's {@code --allow-consolidating-reclaim}) re-placed victims do not
 * count as reclaimed resources.
 */
public record EvictionScenario(
    JobState preemptor,
    ImmutableList<TaskState> preemptorTasks,
    Resources preemptorRequest,
    ImmutableList<TaskState> victims,
    boolean allowConsolidatingReclaim) {
  public EvictionScenario {
    requireNonNull(preemptor, "preemptor is null");
    requireNonNull(preemptorTasks, "preemptorTasks is null");
    requireNonNull(preemptorRequest, "preemptorRequest is null");
    requireNonNull(victims, "victims is null");
  }

  /** The victims grouped by job, jobs in the order their first victim was chosen. */
  public List<List<TaskState>> victimsByJob() {
    Map<JobState, List<TaskState>> byJob = new LinkedHashMap<>();
    for (TaskState t : victims) {
      byJob.computeIfAbsent(t.job(), j -> new ArrayList<>()).add(t);
    }
    return List.copyOf(byJob.values());
  }
}
