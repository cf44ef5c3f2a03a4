package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.QueueShares;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** KAI's eviction messages and stale-gang event (kai-reference §4.7–4.10), formatted once. */
final class EvictionMessages {
  private EvictionMessages() {}

  static String preempt(TaskState victim, JobState preemptor) {
    return String.format(
        "Pod %s was preempted by higher priority workload %s", pod(victim), job(preemptor));
  }

  static String consolidate(TaskState victim) {
    return String.format(
        "Pod %s was preempted and rescheduled due to bin packing (resource consolidation)"
            + " procedure",
        pod(victim));
  }

  /**
   * The reclaim message and the two queue lines, reclaimee first: the leaf queues when they are
   * siblings, else their parents. Read before any victim is evicted.
   */
  static String reclaim(SessionView session, TaskState victim, JobState reclaimer) {
    String head =
        String.format("Pod %s was preempted by workload %s.", pod(victim), job(reclaimer));
    Map<String, QueueInfo> queues =
        session.snapshot().queues().stream()
            .collect(Collectors.toMap(QueueInfo::name, Function.identity()));
    QueueInfo reclaimerQueue = queues.get(reclaimer.info().queue());
    QueueInfo reclaimeeQueue = queues.get(victim.job().info().queue());
    if (reclaimerQueue == null || reclaimeeQueue == null) {
      return head;
    }
    if (!reclaimeeQueue.parent().equals(reclaimerQueue.parent())) {
      reclaimerQueue = reclaimerQueue.parent().map(queues::get).orElse(reclaimerQueue);
      reclaimeeQueue = reclaimeeQueue.parent().map(queues::get).orElse(reclaimeeQueue);
    }
    Optional<QueueShares> shares = session.state().read(QueueShares.KEY);
    if (shares.isEmpty()) {
      return head;
    }
    Optional<QueueShares.Amounts> reclaimee = shares.get().of(reclaimeeQueue.name());
    Optional<QueueShares.Amounts> reclaimerAmounts = shares.get().of(reclaimerQueue.name());
    if (reclaimee.isEmpty() || reclaimerAmounts.isEmpty()) {
      return head;
    }
    return head
        + "\n"
        + queueDetails(reclaimeeQueue.name(), reclaimee.get())
        + "\n"
        + queueDetails(reclaimerQueue.name(), reclaimerAmounts.get());
  }

  static String staleGang(TaskState task, long minMember) {
    return String.format(
        "Workload doesn't meet the minimum required number of pods (%d), evicting remaining pod: %s",
        minMember, pod(task));
  }

  static String staleSubGroup(TaskState task, long minMember, String subGroup) {
    return String.format(
        "Workload doesn't meet the minimum required number of pods (%d) in sub-group %s, evicting"
            + " remaining pod: %s",
        minMember, subGroup, pod(task));
  }

  static String staleJob(long active, long minMember) {
    return String.format("Job is stale. %d pods are active, minMember is %d", active, minMember);
  }

  static String staleJobSubGroup(
      long active, long minMember, String subGroup, long subGroupMin, long subGroupActive) {
    return staleJob(active, minMember)
        + String.format(
            ", subGroup %s minMember is %d and %d pods are active",
            subGroup, subGroupMin, subGroupActive);
  }

  private static String queueDetails(String queue, QueueShares.Amounts a) {
    return String.format(
        "%s uses <%s> with a quota of <%s>, fair-share of <%s> and queue priority of <%d>.",
        queue,
        resources(a.allocated()),
        resources(a.deserved()),
        resources(a.fairShare()),
        a.priority());
  }

  /** KAI's ResourceRequirements.String(): GPUs, cores and GB with up to three decimals. */
  static String resources(ResourceVector v) {
    return String.format(
        "GPU: %s, CPU: %s (cores), memory: %s (GB)",
        humanize(v.gpus(), 1), humanize(v.cpuMillis(), 1000), humanize(v.memoryBytes(), 1e9));
  }

  private static String humanize(double value, double unit) {
    if (value == -1) {
      return "Unlimited";
    }
    BigDecimal d =
        new BigDecimal(value / unit).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
    if (d.signum() == 0) {
      return "0";
    }
    return d.toPlainString();
  }

  static String pod(TaskState task) {
    return task.info().namespace() + "/" + task.info().podName();
  }

  static String job(JobState job) {
    return job.info().namespace() + "/" + job.info().name();
  }
}
