package io.gantry.extender;

import io.gantry.extender.wire.RequestPod;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.Optional;

/**
 * Where the extender's cluster state comes from and where its binds go: the live cluster (informer
 * caches, the API server) or a scenario file (bindings kept in memory). Implementations are
 * thread-safe: verbs call them from several threads at once. Closing one stops what it started (the
 * live cluster's informers).
 */
public interface ExtenderCluster extends AutoCloseable {
  /** The cluster now: every node, queue and job of the scheduler's pods, as the engine reads it. */
  ClusterSnapshot snapshot();

  /**
   * The status the pod's task would have in a snapshot taken now, read without building one; empty
   * when no snapshot would make the pod a task of a PodGroup of Gantry. kube-scheduler asks about
   * every pod it schedules, most of them not Gantry's, and each of those is answered from this
   * alone. A status here is not the last word: a snapshot may still leave the pod out (an invalid
   * PodGroup or SubGroup).
   *
   * @param podKey {@code namespace/name}
   */
  Optional<TaskStatus> candidateStatus(String podKey);

  /**
   * Why the last {@link #snapshot} left out this pod of a PodGroup of Gantry (a fraction pod that
   * the admission webhook never saw, say), in the words its condition carries; empty when it did
   * not, or when this cluster leaves no pod out.
   *
   * @param podKey {@code namespace/name}
   */
  Optional<String> leftOut(String podKey);

  /**
   * The cluster's Queues now with their parents, those a snapshot leaves out included (cheaper than
   * a snapshot: the admission webhook reads them).
   */
  QueueHierarchy queueHierarchy();

  /**
   * The task of the pod with this UID (kube-scheduler names preemption victims by UID only); empty
   * when no pod of the cluster has it.
   */
  Optional<String> taskIdOfUid(String uid);

  /**
   * Binds the task's pod to {@code placement}'s node: for a task with GPUs, first records which
   * GPUs it got (the {@code gantry.io/gpu-allocation} annotation), then creates the binding.
   *
   * @throws BindFailure with the reason, when the pod could not be bound
   */
  void bind(TaskInfo task, PlannedNode placement) throws BindFailure;

  /**
   * Whether Gantry schedules {@code pod} when no PodGroup holds it yet, so that {@link #group}
   * should group it (no I/O: a network thread asks). False by default: a cluster that groups
   * nothing.
   */
  default boolean schedules(RequestPod pod) {
    return false;
  }

  /**
   * Groups a pod that {@link #schedules} and that is in no PodGroup yet, from the request's pod, as
   * KAI's podgrouper would (kai-reference §1.3, §3.4); once {@link Grouping.Grouped}, the pod is a
   * pending task of that PodGroup in this cluster's snapshots.
   */
  default Grouping group(RequestPod pod) {
    return new Grouping.LeftAlone("this cluster groups no pod");
  }

  /** Records a warning event on the task's pod. */
  void warn(TaskInfo task, String reason, String message);

  /** Stops what serving the cluster started; nothing by default. */
  @Override
  default void close() {}

  /** A bind that did not happen. */
  final class BindFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public BindFailure(String message) {
      super(message);
    }
  }
}
