package io.gantry.scheduler.actions;

import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The smallest job that failed per scheduling-constraints signature (KAI's
 * MinimalJobRepresentatives, {@code --use-scheduling-signatures}): a job whose constraints match a
 * failed one and that is not easier — no more pending pods with none smaller — would fail the same
 * way, and is skipped.
 */
final class FailedJobs {
  private final Map<Signature, JobState> representatives = new HashMap<>();

  /** The constraints that decide where a job's pods may go, and what they may evict. */
  private record Signature(
      String queue, int priority, boolean preemptible, Set<TaskConstraints> tasks) {}

  private record TaskConstraints(
      PodPlacementRequirements placement, Optional<GpuSharingRequest> sharing) {}

  /** Whether the job may still succeed where a job with its signature failed. */
  boolean worthTrying(JobState job) {
    JobState failed = representatives.get(signature(job));
    return failed == null || easier(job, failed);
  }

  void recordFailure(JobState job) {
    Signature key = signature(job);
    JobState current = representatives.get(key);
    if (current != null && !footprintSmaller(job, current)) {
      return;
    }
    representatives.put(key, job);
  }

  private static Signature signature(JobState job) {
    Set<TaskConstraints> tasks = new HashSet<>();
    for (TaskState t : pending(job)) {
      tasks.add(new TaskConstraints(t.info().placement(), t.info().gpuSharing()));
    }
    return new Signature(
        job.info().queue(), job.info().priority(), job.info().preemptible(), tasks);
  }

  /** KAI's jobEasierToScheduleComparison. */
  private static boolean easier(JobState job, JobState failed) {
    List<Resources> mine = sortedRequests(job);
    List<Resources> theirs = sortedRequests(failed);
    if (mine.isEmpty() || theirs.isEmpty()) {
      return false;
    }
    if (theirs.size() > mine.size()) {
      return true;
    }
    for (int i = 0; i < mine.size(); i++) {
      if (i >= theirs.size()) {
        return false;
      }
      if (mine.get(i).fitsIn(theirs.get(i)) && !theirs.get(i).fitsIn(mine.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** Every pending pod of {@code job} is at most the matching pod of {@code other}. */
  private static boolean footprintSmaller(JobState job, JobState other) {
    List<Resources> mine = sortedRequests(job);
    List<Resources> theirs = sortedRequests(other);
    if (mine.isEmpty() || theirs.isEmpty() || mine.size() > theirs.size()) {
      return false;
    }
    for (int i = 0; i < mine.size(); i++) {
      if (!mine.get(i).fitsIn(theirs.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static List<TaskState> pending(JobState job) {
    List<TaskState> out = new ArrayList<>();
    for (TaskState t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING) {
        out.add(t);
      }
    }
    return out;
  }

  private static List<Resources> sortedRequests(JobState job) {
    List<Resources> out = new ArrayList<>();
    for (TaskState t : pending(job)) {
      out.add(t.info().request());
    }
    out.sort(
        Comparator.comparing(Resources::gpus)
            .thenComparingLong(Resources::cpuMillis)
            .thenComparingLong(Resources::memoryBytes));
    return out;
  }
}
