package io.gantry.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.extender.ExtenderCluster;
import io.gantry.extender.PlannedNode;
import io.gantry.scheduler.kube.LiveCluster;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.io.IOException;
import java.util.Optional;

/**
 * The live cluster behind the extender: the live scheduler's caches and writes. It lives with the
 * command line, the one place that may join two front doors (the extender never imports the live
 * scheduler's packages).
 */
public final class KubeCluster implements ExtenderCluster {
  private final LiveCluster live;

  public KubeCluster(LiveCluster live) {
    this.live = requireNonNull(live, "live is null");
  }

  @Override
  public ClusterSnapshot snapshot() {
    return live.snapshot();
  }

  @Override
  public Optional<String> leftOut(String podKey) {
    return live.leftOut(podKey);
  }

  @Override
  public Optional<TaskStatus> candidateStatus(String podKey) {
    return live.candidateStatus(podKey);
  }

  @Override
  public QueueHierarchy queueHierarchy() {
    return live.queueHierarchy();
  }

  @Override
  public Optional<String> taskIdOfUid(String uid) {
    // a task's id is its pod's key in the kube adapter's snapshots
    return live.podKeyOfUid(uid);
  }

  @Override
  public void bind(TaskInfo task, PlannedNode placement) throws BindFailure {
    try {
      live.bind(task, placement.node(), placement.gpuGroups(), placement.gpuPortion());
    } catch (IOException e) {
      throw new BindFailure(e.getMessage());
    }
  }

  @Override
  public void warn(TaskInfo task, String reason, String message) {
    live.warn(task, reason, message);
  }

  @Override
  public void close() {
    live.close();
  }
}
