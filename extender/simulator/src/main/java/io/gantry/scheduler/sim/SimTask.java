package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * One task of the simulated world across cycles: its fixed description and where it is now. {@code
 * since} is when it entered its current status (start time for running tasks).
 */
final class SimTask {
  final TaskInfo template;
  TaskStatus status;
  String node;
  ImmutableList<String> gpuGroups;
  GpuAmount gpuPortion;
  ImmutableList<Integer> gpuDevices;
  Instant since;
  String message;

  /**
   * Where an evicted pod still releases while its replacement is pipelined elsewhere in the same
   * cycle (consolidation, or reclaim with allowConsolidatingReclaim); null otherwise.
   */
  Releasing releasing;

  /** An evicted pod's place, kept until it is gone. */
  record Releasing(
      String node,
      ImmutableList<String> gpuGroups,
      GpuAmount gpuPortion,
      ImmutableList<Integer> gpuDevices) {}

  SimTask(TaskInfo template, Instant since) {
    this.template = template;
    this.status = template.status();
    this.node = template.nodeName().orElse(null);
    this.gpuGroups = template.gpuGroups();
    this.gpuPortion = template.gpuPortion();
    this.gpuDevices = template.gpuDevices();
    this.since = since;
  }

  /** A fresh Pending copy with the same name (a replaced or re-created pod). */
  SimTask replacement(Instant now, long creationOrder) {
    TaskInfo t = template;
    TaskInfo pending =
        new TaskInfo(
            t.id(),
            t.name(),
            t.podName(),
            t.namespace(),
            t.jobId(),
            t.podSetName(),
            t.request(),
            t.gpuSharing(),
            TaskStatus.PENDING,
            Optional.empty(),
            ImmutableList.of(),
            GpuAmount.ZERO,
            t.taskPriority(),
            t.labels(),
            t.placement(),
            creationOrder,
            t.resourceClaims(),
            ImmutableList.of(),
            t.legacyMig());
    return new SimTask(pending, now);
  }

  TaskInfo current() {
    return template.placedAs(status, Optional.ofNullable(node), gpuGroups, gpuPortion, gpuDevices);
  }
}
