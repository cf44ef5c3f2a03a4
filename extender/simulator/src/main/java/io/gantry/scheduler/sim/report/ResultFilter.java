package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.EventResult;
import io.gantry.scheduler.sim.SimulationResult.JobResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Narrows a result to some jobs for the text report ({@code gantry simulate --job/--queue}): the
 * jobs named {@code job} (its name in the file or {@code namespace/name}) and in queue {@code
 * queue} or below it; their tasks and events (an event on the job, or on a pod of the job: {@code
 * <job id>-<task>}); the queues they are in, with their ancestors, or {@code queue}'s subtree; and
 * the nodes their tasks are on. Claims are kept as they are. A filter that matches nothing leaves
 * empty sections.
 */
public final class ResultFilter {
  private final Optional<String> job;
  private final Optional<String> queue;

  public ResultFilter(Optional<String> job, Optional<String> queue) {
    this.job = requireNonNull(job, "job is null");
    this.queue = requireNonNull(queue, "queue is null");
  }

  public boolean filters() {
    return job.isPresent() || queue.isPresent();
  }

  public SimulationResult apply(SimulationResult r) {
    if (!filters()) {
      return r;
    }
    Map<String, QueueResult> queues = new HashMap<>();
    r.queues().forEach(q -> queues.put(q.queue(), q));
    Set<String> jobIds = new HashSet<>();
    ImmutableList.Builder<JobResult> jobs = ImmutableList.builder();
    for (JobResult j : r.jobs()) {
      boolean named = job.map(n -> n.equals(j.jobName()) || n.equals(j.job())).orElse(true);
      boolean queued = queue.map(q -> within(j.queue(), q, queues)).orElse(true);
      if (named && queued) {
        jobs.add(j);
        jobIds.add(j.job());
      }
    }
    ImmutableList<SimulationResult.TaskResult> tasks =
        r.tasks().stream()
            .filter(t -> jobIds.contains(t.job()))
            .collect(ImmutableList.toImmutableList());
    Set<String> nodes = new HashSet<>();
    tasks.forEach(t -> t.node().ifPresent(nodes::add));
    Set<String> shownQueues = new HashSet<>();
    if (queue.isPresent()) {
      r.queues().stream()
          .filter(q -> within(q.queue(), queue.get(), queues))
          .forEach(q -> shownQueues.add(q.queue()));
    } else {
      r.jobs().stream()
          .filter(j -> jobIds.contains(j.job()))
          .forEach(j -> ancestors(j.queue(), queues, shownQueues));
    }
    return new SimulationResult(
        r.scenario(),
        r.cycles(),
        tasks,
        jobs.build(),
        r.queues().stream()
            .filter(q -> shownQueues.contains(q.queue()))
            .collect(ImmutableList.toImmutableList()),
        r.nodes().stream()
            .filter(n -> nodes.contains(n.node()))
            .collect(ImmutableList.toImmutableList()),
        r.events().stream()
            .filter(e -> concerns(e, jobIds))
            .collect(ImmutableList.toImmutableList()),
        r.claims());
  }

  /** Whether {@code name} is {@code top} or a queue below it. */
  private static boolean within(String name, String top, Map<String, QueueResult> queues) {
    Optional<String> q = Optional.of(name);
    Set<String> seen = new HashSet<>();
    while (q.isPresent() && seen.add(q.get())) {
      if (q.get().equals(top)) {
        return true;
      }
      q = Optional.ofNullable(queues.get(q.get())).flatMap(QueueResult::parent);
    }
    return false;
  }

  private static void ancestors(String name, Map<String, QueueResult> queues, Set<String> out) {
    Optional<String> q = Optional.of(name);
    while (q.isPresent() && out.add(q.get())) {
      q = Optional.ofNullable(queues.get(q.get())).flatMap(QueueResult::parent);
    }
  }

  private static boolean concerns(EventResult e, Set<String> jobIds) {
    if (jobIds.contains(e.object())) {
      return true;
    }
    // a pod's key is its job's id, a dash and more: try each dash, not each job
    String object = e.object();
    for (int dash = object.indexOf('-'); dash > 0; dash = object.indexOf('-', dash + 1)) {
      if (jobIds.contains(object.substring(0, dash))) {
        return true;
      }
    }
    return false;
  }
}
