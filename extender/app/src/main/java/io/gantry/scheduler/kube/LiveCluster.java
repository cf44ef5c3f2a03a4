package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.snapshot.GpuInventoryReader;
import io.gantry.scheduler.kube.snapshot.InFlightBinds;
import io.gantry.scheduler.kube.snapshot.PodGroupAssignments;
import io.gantry.scheduler.kube.snapshot.QueueReader;
import io.gantry.scheduler.kube.snapshot.SnapshotBuilder;
import io.gantry.scheduler.kube.snapshot.SnapshotScope;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.GpuAllocations;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.kube.write.ObjectRef;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The live cluster for a front door that is not the secondary scheduler (the HTTP extender): the
 * same informer caches and snapshot as the scheduler, and synchronous writes: a bind writes the
 * {@value GpuAllocation#ANNOTATION} annotation first (for a task with GPUs), then the binding, and
 * returns once the API server has answered. Pods join through their PodGroup annotation; no pod is
 * grouped here, since the pods of the default scheduler are not all Gantry's.
 */
public final class LiveCluster implements AutoCloseable {

  private final ClusterInformers informers;
  private final KubeWriter writer;
  private final EventRecorder events;
  private final SnapshotBuilder snapshots;

  private LiveCluster(ApiClient client, SchedulerSettings settings, Clock clock) {
    this.informers = new ClusterInformers(client);
    this.writer = new KubeWriter(client);
    this.events =
        new EventRecorder(writer, settings.schedulerName(), clock, settings.eventsPerSecond());
    this.snapshots =
        new SnapshotBuilder(
            informers,
            new SnapshotScope(settings.schedulerName(), settings.nodePool()),
            clock,
            InFlightBinds.NONE,
            PodGroupAssignments.NONE,
            UsageSource.NONE,
            // the extender's metrics registry is built after its cluster: the log and the event
            // report an unreadable GPU inventory there
            new GpuInventoryReader(events, Optional.empty()));
  }

  /** Starts the informers; {@link #ready} tells when their caches have synced. */
  public static LiveCluster start(ApiClient client, SchedulerSettings settings, Clock clock) {
    requireNonNull(client, "client is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    LiveCluster c = new LiveCluster(client, settings, clock);
    c.informers.start();
    return c;
  }

  public boolean ready() {
    return informers.hasSynced();
  }

  /** The cluster now, as the secondary scheduler's cycle would see it. */
  public ClusterSnapshot snapshot() {
    return snapshots.build().snapshot();
  }

  /**
   * The status the pod's task would have in a snapshot taken now, from the caches without building
   * one; empty when no snapshot would make it a task (see {@link SnapshotBuilder#candidateStatus}).
   */
  public Optional<TaskStatus> candidateStatus(String podKey) {
    return snapshots.candidateStatus(podKey);
  }

  /** The cached Queues with their parents, orphans included (without building a snapshot). */
  public QueueHierarchy queueHierarchy() {
    return QueueReader.hierarchy(informers.queues());
  }

  /** The key ({@code namespace/name}, a task's id) of the cached pod with this UID. */
  public Optional<String> podKeyOfUid(String uid) {
    return informers.podKeyOfUid(uid);
  }

  /**
   * Binds the task's pod to {@code node}, the GPU allocation annotation carried on the binding. A
   * pod already bound to {@code node} counts as bound.
   *
   * @throws IOException with the API server's answer when the pod was not bound
   */
  public void bind(TaskInfo task, String node, ImmutableList<String> gpuGroups, GpuAmount portion)
      throws IOException {
    try {
      // kube-scheduler's bind verb names a node, not devices: the node's device plugin picks them
      Optional<GpuAllocation> allocation =
          GpuAllocations.of(task, node, gpuGroups, portion, ImmutableList.of());
      KubeWriter.BindResponse response =
          writer.bind(
              task.namespace(),
              task.podName(),
              node,
              allocation.isPresent()
                  ? Map.of(GpuAllocation.ANNOTATION, GpuAllocationJson.write(allocation.get()))
                  : Map.of());
      if (response.ok()
          || (response.code() == 409 && response.body().contains("node \\\"" + node + "\\\""))) {
        return;
      }
      throw new IOException(
          "binding pod "
              + task.namespace()
              + "/"
              + task.podName()
              + " to node "
              + node
              + ": HTTP "
              + response.code()
              + " "
              + response.body());
    } catch (ApiException e) {
      throw new IOException(
          "binding pod "
              + task.namespace()
              + "/"
              + task.podName()
              + ": HTTP "
              + e.getCode()
              + " "
              + e.getResponseBody(),
          e);
    }
  }

  /** A warning event on the task's pod. */
  public void warn(TaskInfo task, String reason, String message) {
    V1Pod pod = informers.pod(task.namespace(), task.podName());
    String uid =
        pod == null || pod.getMetadata().getUid() == null ? "" : pod.getMetadata().getUid();
    events.warning(
        new ObjectRef("v1", "Pod", task.namespace(), task.podName(), uid), reason, message);
  }

  @Override
  public void close() {
    events.close();
    informers.close();
  }
}
