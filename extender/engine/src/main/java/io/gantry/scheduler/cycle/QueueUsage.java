package io.gantry.scheduler.cycle;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.framework.FairShares;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each queue's subtree holds at the end of a cycle: every allocated task (kai-reference §4.2)
 * counts toward its leaf queue and every ancestor, shared tasks with portion × devices GPUs, a DRA
 * GPU claim once per queue and node however many of its pods use it (§8).
 */
final class QueueUsage {
  private final Map<String, QueueInfo> byName = new HashMap<>();
  private final Map<String, Resources> allocated = new HashMap<>();
  private final Map<String, Resources> allocatedNonPreemptible = new HashMap<>();

  private QueueUsage(Session session) {
    session.snapshot().queues().forEach(q -> byName.put(q.name(), q));
  }

  static ImmutableList<QueueOutcome> of(Session session) {
    QueueUsage usage = new QueueUsage(session);
    Optional<FairShares> fairShares = session.state().read(FairShares.KEY);
    // gathered per leaf first (a shared DRA GPU claim counts once in its queue), then added up the
    // tree
    Map<String, List<TaskState>> leafAll = new LinkedHashMap<>();
    Map<String, List<TaskState>> leafNonPreemptible = new LinkedHashMap<>();
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.status().isAllocated()) {
          leafAll.computeIfAbsent(job.info().queue(), q -> new ArrayList<>()).add(task);
          if (!job.info().preemptible()) {
            leafNonPreemptible
                .computeIfAbsent(job.info().queue(), q -> new ArrayList<>())
                .add(task);
          }
        }
      }
    }
    leafAll.forEach(
        (queue, tasks) ->
            usage.add(
                queue, TaskState.queueAmounts(tasks, session.heldGpus(tasks)), usage.allocated));
    leafNonPreemptible.forEach(
        (queue, tasks) ->
            usage.add(
                queue,
                TaskState.queueAmounts(tasks, session.heldGpus(tasks)),
                usage.allocatedNonPreemptible));
    ImmutableList.Builder<QueueOutcome> out = ImmutableList.builder();
    for (QueueInfo q : session.snapshot().queues()) {
      out.add(
          new QueueOutcome(
              q.name(),
              fairShares.flatMap(f -> f.fairShare(q.name())).orElse(ResourceVector.ZERO),
              amounts(usage.allocated, q.name()),
              amounts(usage.allocatedNonPreemptible, q.name())));
    }
    return out.build();
  }

  /** {@code amounts} count in {@code leaf} and every ancestor it names. */
  private void add(String leaf, Resources amounts, Map<String, Resources> sums) {
    Optional<QueueInfo> q = Optional.ofNullable(byName.get(leaf));
    while (q.isPresent()) {
      sums.merge(q.get().name(), amounts, Resources::plus);
      q = q.get().parent().map(byName::get);
    }
  }

  private static ResourceVector amounts(Map<String, Resources> sums, String queue) {
    return ResourceVector.of(sums.getOrDefault(queue, Resources.ZERO));
  }
}
