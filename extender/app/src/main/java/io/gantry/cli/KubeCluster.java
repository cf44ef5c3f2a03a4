package io.gantry.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.extender.ExtenderCluster;
import io.gantry.extender.Grouping;
import io.gantry.extender.PlannedNode;
import io.gantry.extender.wire.RequestPod;
import io.gantry.scheduler.kube.LiveCluster;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The live cluster behind the extender: the live scheduler's caches and writes. It lives with the
 * command line, the one place that may join two front doors (the extender never imports the live
 * scheduler's packages).
 */
public final class KubeCluster implements ExtenderCluster {
  /**
   * How long grouping a pod of a request waits for the caches to show its PodGroup: well within
   * kube-scheduler's default extender timeout (5 s), which the whole filter answer must meet.
   */
  static final Duration CACHE_WAIT = Duration.ofSeconds(2);

  private final LiveCluster live;
  private final String schedulerName;
  private final String queueLabelKey;

  /**
   * @param schedulerName the scheduler whose pods are served
   * @param queueLabelKey the label naming a pod's queue: a pod in no PodGroup is grouped when it
   *     has it
   */
  public KubeCluster(LiveCluster live, String schedulerName, String queueLabelKey) {
    this.live = requireNonNull(live, "live is null");
    this.schedulerName = requireNonNull(schedulerName, "schedulerName is null");
    this.queueLabelKey = requireNonNull(queueLabelKey, "queueLabelKey is null");
  }

  @Override
  public boolean schedules(RequestPod pod) {
    return pod.scheduledBy(schedulerName, queueLabelKey);
  }

  /**
   * Groups the pod with the live scheduler's pod grouper: its owners are read through the API as
   * the scheduler reads them, the PodGroup is created and the pod annotated; an owner that cannot
   * be read makes the pod wait, with the grouper's event and message.
   */
  @Override
  public Grouping group(RequestPod pod) {
    Optional<String> leftAlone = pod.leftAlone();
    if (leftAlone.isPresent()) {
      return new Grouping.LeftAlone(leftAlone.get());
    }
    V1Pod request;
    try {
      request = JSON.deserialize(pod.object().toString(), V1Pod.class);
    } catch (RuntimeException e) {
      // the cached pod is used when there is one; this one is read only when there is not
      request =
          new V1Pod()
              .metadata(new V1ObjectMeta().name(pod.ref().name()).namespace(pod.ref().namespace()));
    }
    LiveCluster.GroupingResult result;
    try {
      result = live.group(pod.ref().namespace(), pod.ref().name(), request, CACHE_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Grouping.Waits.of(pod.key(), "the extender is stopping");
    }
    if (result.problem().isPresent()) {
      return new Grouping.Waits(result.problem().get());
    }
    if (result.podGroup().isPresent()) {
      return new Grouping.Grouped(result.podGroup().get());
    }
    return Grouping.Waits.of(
        pod.key(),
        "its PodGroup is not in the extender's caches after "
            + CACHE_WAIT.toSeconds()
            + "s; kube-scheduler asks again");
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
