package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.model.ClusterSnapshot;

/**
 * The cluster as the extender sees it at one moment: the engine's snapshot, and which task each pod
 * UID is (kube-scheduler names preemption victims by UID only).
 */
public record ClusterView(ClusterSnapshot snapshot, ImmutableMap<String, String> taskIdByUid) {
  public ClusterView {
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(taskIdByUid, "taskIdByUid is null");
  }
}
