package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.model.ClusterSnapshot;

/**
 * One cycle's snapshot and the cluster objects behind it, so that decisions and outcomes (which
 * name tasks and jobs by id) can be written back: each task id is a pod's {@code namespace/name},
 * each job id a PodGroup's. {@code unschedulablePods} are pods of this scheduler that cannot enter
 * the snapshot as written (a bad annotation, an unknown SubGroup, no PodGroup because the pod
 * grouper could not read an owner), with why; {@code pods} holds them as well as the tasks' pods.
 */
public record LiveSnapshot(
    ClusterSnapshot snapshot,
    ImmutableMap<String, PodFacts> pods,
    ImmutableMap<String, KaiPodGroup> podGroups,
    ImmutableList<Problem> unschedulablePods,
    ImmutableList<Problem> invalidPodGroups) {

  /** An object ({@code namespace/name}) the scheduler cannot schedule as written, and why. */
  public record Problem(String key, SnapshotReason reason) {
    public Problem {
      requireNonNull(key, "key is null");
      requireNonNull(reason, "reason is null");
    }

    /** Why, in the words written to the cluster. */
    public String message() {
      return reason.message();
    }
  }

  /** The pods left out ({@code namespace/name}) to why, in the words written to the cluster. */
  public ImmutableMap<String, String> leftOutPods() {
    ImmutableMap.Builder<String, String> left = ImmutableMap.builder();
    for (Problem p : unschedulablePods) {
      left.put(p.key(), p.message());
    }
    return left.buildKeepingLast();
  }

  public LiveSnapshot {
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(pods, "pods is null");
    requireNonNull(podGroups, "podGroups is null");
    requireNonNull(unschedulablePods, "unschedulablePods is null");
    requireNonNull(invalidPodGroups, "invalidPodGroups is null");
  }
}
