package io.gantry.scheduler.api;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.ResourceAmounts;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.QueueInfo;
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
  private final Map<String, Sums> allocated = new HashMap<>();
  private final Map<String, Sums> allocatedNonPreemptible = new HashMap<>();

  private QueueUsage(Session session) {
    session.snapshot().queues().forEach(q -> byName.put(q.name(), q));
  }

  static ImmutableList<QueueOutcome> of(Session session) {
    QueueUsage usage = new QueueUsage(session);
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
              session.hooks().fairShare(q.name()),
              usage.allocated.getOrDefault(q.name(), new Sums()).amounts(),
              usage.allocatedNonPreemptible.getOrDefault(q.name(), new Sums()).amounts()));
    }
    return out.build();
  }

  private void add(JobState job, TaskState task, double gpus) {
    Resources request = task.info().request();
    Optional<QueueInfo> q = Optional.ofNullable(byName.get(job.info().queue()));
    while (q.isPresent()) {
      String name = q.get().name();
      allocated.computeIfAbsent(name, k -> new Sums()).add(gpus, request);
      if (!job.info().preemptible()) {
        allocatedNonPreemptible.computeIfAbsent(name, k -> new Sums()).add(gpus, request);
      }
      q = q.get().parent().map(byName::get);
    }
  }

  /** Running sums, GPUs rounded to hundredths after each task as the model keeps them. */
  private static final class Sums {
    private double gpus;
    private double cpuMillis;
    private double memoryBytes;

    void add(double taskGpus, Resources request) {
      gpus = Resources.roundGpus(gpus + taskGpus);
      cpuMillis += request.cpuMillis();
      memoryBytes += request.memoryBytes();
    }

    ResourceAmounts amounts() {
      return new ResourceAmounts(gpus, cpuMillis, memoryBytes);
    }
  }
}
