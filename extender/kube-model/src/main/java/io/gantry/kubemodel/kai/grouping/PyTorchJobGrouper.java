package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A PyTorchJob (kai-reference §3.4): the Kubeflow gang over {@code pytorchReplicaSpecs}, its size
 * {@code spec.elasticPolicy.minReplicas} when set, and {@code
 * spec.runPolicy.schedulingPolicy.minAvailable} over both; SubGroups {@value #MASTER} (all its
 * replicas) and {@value #WORKER} (the rest of the gang).
 *
 * <p>Segments: with {@value DefaultGrouper#SEGMENT_SIZE} S on the pod or the Worker template, the R
 * workers are split into {@code ceil(R/S)} leaf SubGroups {@code worker-0 …} under {@value
 * #WORKER}; a worker belongs to segment {@code replica-index / S}. The gang's workers fill the
 * segments in order: a segment needs as many of its pods as fall within the workers' share of the
 * gang (S for a segment wholly inside it, 0 for the elastic tail beyond it). Each segment takes the
 * topology from the segment annotations.
 */
public final class PyTorchJobGrouper implements Grouper {
  public static final String MASTER = "master";
  public static final String WORKER = "worker";
  public static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
  public static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";

  private static final String MASTER_TYPE = "Master";
  private static final String WORKER_TYPE = "Worker";
  private static final String WORKER_TEMPLATE = "spec.pytorchReplicaSpecs.Worker.template";

  private final KubeflowGrouper kubeflow;

  public PyTorchJobGrouper(DefaultGrouper defaults) {
    requireNonNull(defaults, "defaults is null");
    this.kubeflow = new KubeflowGrouper(defaults, "pytorchReplicaSpecs", List.of());
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.KubeflowSpec spec = DefaultGrouper.spec(input, WorkloadSpec.KubeflowSpec.class);
    PodGroupPlan plan = kubeflow.plan(input);
    int minMember = plan.minMember().orElse(1);
    if (spec.elasticMinReplicas().isPresent()) {
      minMember = spec.elasticMinReplicas().getAsInt();
    }
    if (spec.minAvailable().isPresent()) {
      minMember = spec.minAvailable().getAsInt();
    }
    plan = plan.withMinMember(minMember);

    PodMeta pod = input.pod();
    String podType = pod.labels().getOrDefault(REPLICA_TYPE_LABEL, "");
    ImmutableList.Builder<PlannedSubGroup> subGroups = ImmutableList.builder();
    Optional<String> leaf = Optional.empty();
    ReplicaSpec master = spec.replicaSpecs().get(MASTER_TYPE);
    int masters = master == null ? 0 : master.replicas().orElse(0);
    if (masters > 0) {
      subGroups.add(PlannedSubGroup.leaf(MASTER, Optional.empty(), masters));
      if (podType.equals(MASTER)) {
        leaf = Optional.of(MASTER);
      }
    }
    ReplicaSpec worker = spec.replicaSpecs().get(WORKER_TYPE);
    if (worker != null) {
      int workerMin = Math.max(0, minMember - masters);
      Optional<String> workerLeaf =
          workers(input, worker, workerMin, podType.equals(WORKER), subGroups);
      leaf = leaf.or(() -> workerLeaf);
    }
    ImmutableList<PlannedSubGroup> built = subGroups.build();
    return built.isEmpty() ? plan : plan.withSubGroups(OptionalInt.empty(), built, leaf);
  }

  /** Adds the worker SubGroups; the pod's leaf when it is a worker. */
  private static Optional<String> workers(
      GroupingInput input,
      ReplicaSpec worker,
      int workerMin,
      boolean podIsWorker,
      ImmutableList.Builder<PlannedSubGroup> subGroups) {
    int replicas = worker.replicas().orElse(1);
    PodMeta pod = input.pod();
    OptionalInt segmentSize = segmentSize(pod, worker, replicas);
    if (segmentSize.isEmpty()) {
      subGroups.add(PlannedSubGroup.leaf(WORKER, Optional.empty(), workerMin));
      return podIsWorker ? Optional.of(WORKER) : Optional.empty();
    }
    int size = segmentSize.getAsInt();
    int segments = (replicas + size - 1) / size;
    Optional<TopologyConstraint> topology =
        Segments.topologyConstraint(
            pod.annotations(), worker.template().annotations(), input.topOwner().annotations());
    subGroups.add(PlannedSubGroup.inner(WORKER, Optional.empty(), OptionalInt.empty()));
    for (int i = 0; i < segments; i++) {
      int first = i * size;
      int pods = Math.min(size, replicas - first);
      int required = Math.max(0, Math.min(pods, workerMin - first));
      subGroups.add(
          PlannedSubGroup.leaf(segmentName(i), Optional.of(WORKER), required)
              .withTopologyConstraint(topology));
    }
    if (!podIsWorker) {
      return Optional.empty();
    }
    return Optional.of(segmentName(Segments.podIndex(pod, REPLICA_INDEX_LABEL) / size));
  }

  private static OptionalInt segmentSize(PodMeta pod, ReplicaSpec worker, int replicas) {
    String onPod = pod.annotations().getOrDefault(DefaultGrouper.SEGMENT_SIZE, "");
    if (!onPod.isEmpty()) {
      return OptionalInt.of(
          Segments.size(
              onPod, "pod.metadata.annotations." + DefaultGrouper.SEGMENT_SIZE, replicas));
    }
    String onTemplate =
        worker.template().annotations().getOrDefault(DefaultGrouper.SEGMENT_SIZE, "");
    if (onTemplate.isEmpty()) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(
        Segments.size(
            onTemplate,
            WORKER_TEMPLATE + ".metadata.annotations." + DefaultGrouper.SEGMENT_SIZE,
            replicas));
  }

  private static String segmentName(int index) {
    return WORKER + "-" + index;
  }
}
