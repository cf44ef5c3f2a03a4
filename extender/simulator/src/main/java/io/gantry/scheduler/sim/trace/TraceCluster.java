package io.gantry.scheduler.sim.trace;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A trace's nodes and tasks as engine values: a node carries its GPU model as the label {@value
 * #GPU_MODEL_LABEL}; a task is a one-pod job in the one queue {@value #QUEUE}, whose quota is the
 * whole cluster, and a task's {@code gpu_spec} is a required node affinity on that label. A shared
 * task asks for its thousandths as a fraction rounded up to the engine's hundredths.
 */
public final class TraceCluster {
  /** The label GPU feature discovery puts the GPU model in. */
  public static final String GPU_MODEL_LABEL = "nvidia.com/gpu.product";

  public static final String QUEUE = "trace";
  static final String NAMESPACE = "trace";

  /** Enough pod slots that no node of a trace runs out (the paper's simulator has no limit). */
  private static final int MAX_PODS = 100_000;

  private static final long MIB = 1L << 20;

  private TraceCluster() {}

  public static ImmutableList<NodeInfo> nodes(List<TraceNode> nodes) {
    ImmutableList.Builder<NodeInfo> out = ImmutableList.builder();
    nodes.stream()
        .sorted((a, b) -> a.name().compareTo(b.name()))
        .forEach(
            n ->
                out.add(
                    new NodeInfo(
                        n.name(),
                        ImmutableSortedMap.of(
                            NodeInfo.HOSTNAME_LABEL, n.name(), GPU_MODEL_LABEL, n.model()),
                        ImmutableList.of(),
                        Resources.of(
                            n.cpuMillis(), n.memoryMib() * MIB, GpuAmount.ofDevices(n.gpus())),
                        0,
                        true,
                        MAX_PODS,
                        false,
                        true)));
    return out.build();
  }

  /** The one queue: the cluster's GPUs as quota, CPU and memory unlimited. */
  public static QueueInfo queue(List<TraceNode> nodes) {
    double gpus = nodes.stream().mapToLong(TraceNode::gpus).sum();
    return new QueueInfo(
        QUEUE,
        Optional.empty(),
        QueueInfo.DEFAULT_PRIORITY,
        new QueueResource(gpus, 1, QueueResource.UNLIMITED),
        new QueueResource(QueueResource.UNLIMITED, 1, QueueResource.UNLIMITED),
        new QueueResource(QueueResource.UNLIMITED, 1, QueueResource.UNLIMITED),
        Optional.empty(),
        Optional.empty(),
        0);
  }

  /** The job id of the {@code index}-th arrival. */
  public static String jobId(int index) {
    return NAMESPACE + "/" + jobName(index);
  }

  /** The task id of the {@code index}-th arrival. */
  public static String taskId(int index) {
    return jobId(index) + "/0";
  }

  private static String jobName(int index) {
    return String.format("a-%06d", index);
  }

  /**
   * The {@code index}-th arrival as a one-pod job created at {@code createdAt}, pending or running
   * where {@code placed} says (node, shared GPU groups and portion).
   */
  public static JobInfo job(
      int index, TraceTask task, Instant createdAt, Optional<TraceLedger.Placed> placed) {
    String jobName = jobName(index);
    String jobId = jobId(index);
    Optional<GpuSharingRequest> sharing =
        task.shared()
            ? Optional.of(GpuSharingRequest.ofFraction(Math.ceil(task.gpuMilli() / 10.0) / 100, 1))
            : Optional.empty();
    GpuAmount whole =
        task.gpus() > 0 && !task.shared() ? GpuAmount.ofDevices(task.gpus()) : GpuAmount.ZERO;
    TaskInfo info =
        new TaskInfo(
            taskId(index),
            "0",
            jobName + "-0",
            NAMESPACE,
            jobId,
            JobInfo.DEFAULT_POD_SET,
            Resources.of(task.cpuMillis(), task.memoryMib() * MIB, whole),
            sharing,
            placed.isPresent() ? TaskStatus.RUNNING : TaskStatus.PENDING,
            placed.map(TraceLedger.Placed::node),
            placed.map(TraceLedger.Placed::gpuGroups).orElse(ImmutableList.of()),
            placed.map(TraceLedger.Placed::gpuPortion).orElse(GpuAmount.ZERO),
            OptionalInt.empty(),
            ImmutableSortedMap.of(),
            placement(task),
            index);
    return new JobInfo(
        jobId,
        jobName,
        NAMESPACE,
        QUEUE,
        50,
        true,
        createdAt,
        index,
        new SubGroupSet(
            "",
            OptionalInt.empty(),
            ImmutableList.of(new PodSet(JobInfo.DEFAULT_POD_SET, 1)),
            Optional.empty()),
        ImmutableList.of(info));
  }

  private static PodPlacementRequirements placement(TraceTask task) {
    if (task.gpuModels().isEmpty()) {
      return PodPlacementRequirements.none();
    }
    NodeSelectorTerm term =
        NodeSelectorTerm.ofExpressions(
            new NodeSelectorRequirement(GPU_MODEL_LABEL, SelectorOperator.IN, task.gpuModels()));
    return new PodPlacementRequirements(
        ImmutableSortedMap.of(),
        ImmutableList.of(),
        new Affinity(ImmutableList.of(term), ImmutableList.of(), ImmutableList.of()));
  }
}
