package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import java.util.Optional;

/**
 * The tasks of one snapshot by their pod's key ({@code namespace/name}), so the extender finds the
 * pod of a request without walking every job of a large cluster per request.
 */
final class PodIndex {
  /** A pod's task and the job it belongs to. */
  record Member(JobInfo job, TaskInfo task) {
    Member {
      requireNonNull(job, "job is null");
      requireNonNull(task, "task is null");
    }
  }

  private final ClusterSnapshot snapshot;
  private final ImmutableMap<String, Member> byPod;

  private PodIndex(ClusterSnapshot snapshot, ImmutableMap<String, Member> byPod) {
    this.snapshot = snapshot;
    this.byPod = byPod;
  }

  static PodIndex of(ClusterSnapshot snapshot) {
    ImmutableMap.Builder<String, Member> byPod = ImmutableMap.builder();
    for (JobInfo j : snapshot.jobs()) {
      for (TaskInfo t : j.tasks()) {
        byPod.put(Snapshots.podKey(t), new Member(j, t));
      }
    }
    return new PodIndex(snapshot, byPod.buildKeepingLast());
  }

  /** Whether this is the index of exactly {@code s} (the same instance, not an equal one). */
  @SuppressWarnings("ReferenceEquality") // value equality would compare every node and job
  boolean indexes(ClusterSnapshot s) {
    return snapshot == s;
  }

  Optional<Member> member(String podKey) {
    return Optional.ofNullable(byPod.get(podKey));
  }
}
