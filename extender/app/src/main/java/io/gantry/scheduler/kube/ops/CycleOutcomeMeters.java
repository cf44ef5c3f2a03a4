package io.gantry.scheduler.kube.ops;

import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Publishes what a cycle left behind: each queue's and node's gauges, the pending pods by queue and
 * reason, the pods it could not place (schedule attempts {@code unschedulable}) and each eviction
 * (KAI's {@code pod_group_evicted_pods_total} for its PodGroup, Gantry's {@code evictions} by
 * action).
 */
final class CycleOutcomeMeters {
  private CycleOutcomeMeters() {}

  static void record(SchedulerMetrics metrics, CycleResult result, LiveSnapshot live) {
    Map<String, String> queueOfJob = new HashMap<>();
    for (JobInfo job : live.snapshot().jobs()) {
      queueOfJob.put(job.id(), job.queue());
    }
    metrics
        .queues()
        .publish(live.snapshot().queues(), result.queues(), live.snapshot().queueUsage());
    metrics.nodes().publish(result.nodes());
    long unschedulable = metrics.pending().publish(result.jobs(), queueOfJob);
    if (unschedulable > 0) {
      metrics.scheduleAttempts("unschedulable", unschedulable);
    }
    List<EvictDecision> evictions = new ArrayList<>();
    for (Decision d : result.decisions()) {
      if (d instanceof EvictDecision e) {
        evictions.add(e);
      }
    }
    if (evictions.isEmpty()) {
      return; // every task's job is read only in a cycle that evicts
    }
    Map<String, String> jobOfTask = jobOfTask(live);
    for (EvictDecision e : evictions) {
      String jobId = jobOfTask.getOrDefault(e.taskId(), "");
      Optional<KaiPodGroup> pg = Optional.ofNullable(live.podGroups().get(jobId));
      String uid = pg.map(KaiPodGroup::getMetadata).map(m -> m.getUid()).orElse("");
      metrics.evicted(podGroupName(jobId), uid, e.cause().action());
    }
  }

  /** The job of each task of the snapshot. */
  private static Map<String, String> jobOfTask(LiveSnapshot live) {
    Map<String, String> out = new HashMap<>();
    for (JobInfo job : live.snapshot().jobs()) {
      for (TaskInfo t : job.tasks()) {
        out.put(t.id(), job.id());
      }
    }
    return out;
  }

  /** The PodGroup's name: its job id is {@code namespace/name}. */
  private static String podGroupName(String jobId) {
    int slash = jobId.indexOf('/');
    return slash < 0 ? jobId : jobId.substring(slash + 1);
  }
}
