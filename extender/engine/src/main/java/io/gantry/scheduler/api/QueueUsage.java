package io.gantry.scheduler.api;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.framework.FairShares;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What each queue's subtree holds at the end of a cycle: every allocated task (kai-reference §4.2)
 * counts toward its leaf queue and every ancestor, shared tasks with portion × devices GPUs.
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
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.status().isAllocated()) {
          usage.add(job, task, session.quotaGpus(task));
        }
      }
    }
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

  private void add(JobState job, TaskState task, GpuAmount gpus) {
    Resources request = task.info().request();
    Resources counted = Resources.of(request.cpuMillis(), request.memoryBytes(), gpus);
    Optional<QueueInfo> q = Optional.ofNullable(byName.get(job.info().queue()));
    while (q.isPresent()) {
      String name = q.get().name();
      allocated.merge(name, counted, Resources::plus);
      if (!job.info().preemptible()) {
        allocatedNonPreemptible.merge(name, counted, Resources::plus);
      }
      q = q.get().parent().map(byName::get);
    }
  }

  private static ResourceVector amounts(Map<String, Resources> sums, String queue) {
    return ResourceVector.of(sums.getOrDefault(queue, Resources.ZERO));
  }
}
