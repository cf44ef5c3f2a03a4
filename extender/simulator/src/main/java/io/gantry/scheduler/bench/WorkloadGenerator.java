package io.gantry.scheduler.bench;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.GpuTopology;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;

/**
 * Builds the snapshot a {@link BenchWorkload} describes, the same for the same spec: GPU nodes (128
 * cores, 1 TiB, {@code gpusPerNode} 80 GiB GPUs) and CPU-only nodes (64 cores, 256 GiB); a queue
 * tree whose leaves share the GPUs evenly as quota (or, for a reclaim workload, a victims queue and
 * a reclaimer queue); running single-pod jobs; pending jobs of whole GPU, fractional or CPU-only
 * pods with a few CPU and memory sizes, in random leaf queues with one of two priorities. With
 * topology levels, nodes are labelled into a Topology {@value #TOPOLOGY} ({@link BenchTopology})
 * and every pending job must stay inside one domain of the level above the host.
 */
public final class WorkloadGenerator {
  /** The cycle's time; pending jobs were created in the minutes before it. */
  public static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static final String NAMESPACE = "bench";
  private static final long GIB = 1L << 30;
  private static final long[] GPU_POD_CPU_MILLIS = {1000, 2000, 4000};
  private static final long[] GPU_POD_MEMORY_GIB = {4, 8, 16};
  private static final long[] CPU_POD_CPU_MILLIS = {500, 1000, 2000};
  private static final long[] CPU_POD_MEMORY_GIB = {1, 2, 4};

  private WorkloadGenerator() {}

  /** The name of the Topology the jobs of a workload with topology levels are constrained to. */
  public static final String TOPOLOGY = "bench";

  /** The snapshot for {@code spec}. */
  public static ClusterSnapshot generate(BenchWorkload spec) {
    Random random = new Random(spec.seed());
    List<NodeInfo> nodes = nodes(spec, random);
    List<QueueInfo> queues = new ArrayList<>();
    List<String> leaves = new ArrayList<>();
    long gpuNodes = nodes.stream().filter(n -> n.gpuCount() > 0).count();
    List<JobInfo> jobs = new ArrayList<>();
    if (spec.reclaimShortfallGpus() > 0) {
      long need = spec.pendingPods() * spec.gpusPerPod();
      long runningGpuPods = Math.min(spec.runningPods(), gpuNodes * spec.gpusPerNode());
      queues.add(
          queue("victims", (double) (runningGpuPods - need + spec.reclaimShortfallGpus()), 0));
      queues.add(queue("reclaimer", (double) need, 1));
      running(spec, nodes, List.of("victims"), random, jobs);
      pending(spec, List.of("reclaimer"), random, jobs);
    } else {
      long leafCount = Math.round(Math.pow(spec.queueWidth(), spec.queueDepth()));
      double leafQuota = Math.floor(gpuNodes * spec.gpusPerNode() / (double) leafCount);
      queues(spec, Optional.empty(), "q", 1, leafQuota, queues, leaves);
      running(spec, nodes, leaves, random, jobs);
      pending(spec, leaves, random, jobs);
    }
    ImmutableSortedMap<String, Topology> topologies =
        spec.topologyLevels() > 0
            ? ImmutableSortedMap.of(
                TOPOLOGY, BenchTopology.topology(TOPOLOGY, spec.topologyLevels()))
            : ImmutableSortedMap.of();
    return new ClusterSnapshot(
        NOW,
        ImmutableList.copyOf(nodes),
        ImmutableList.copyOf(queues),
        ImmutableList.copyOf(jobs),
        ImmutableSortedMap.of(),
        topologies);
  }

  private static List<NodeInfo> nodes(BenchWorkload spec, Random random) {
    List<NodeInfo> out = new ArrayList<>(spec.nodes());
    for (int i = 0; i < spec.nodes(); i++) {
      String name = String.format("node-%05d", i);
      boolean cpuOnly = random.nextDouble() < spec.cpuOnlyNodeShare();
      Resources allocatable =
          cpuOnly
              ? Resources.of(64_000, 256 * GIB, GpuAmount.ZERO)
              : Resources.of(128_000, 1024 * GIB, GpuAmount.ofDevices(spec.gpusPerNode()));
      out.add(
          new NodeInfo(
              name,
              BenchTopology.labels(name, i, spec.topologyLevels()),
              ImmutableList.of(),
              allocatable,
              cpuOnly ? 0 : 81_920,
              true,
              250,
              false,
              true,
              cpuOnly ? GpuTopology.NONE : gpuDomains(spec)));
    }
    return out;
  }

  /** {@code gpuDomainsPerNode} domains of equal size, GPUs in index order. */
  private static GpuTopology gpuDomains(BenchWorkload spec) {
    if (spec.gpuDomainsPerNode() == 0) {
      return GpuTopology.NONE;
    }
    int size = spec.gpusPerNode() / spec.gpuDomainsPerNode();
    List<List<Integer>> domains = new ArrayList<>();
    for (int d = 0; d < spec.gpuDomainsPerNode(); d++) {
      List<Integer> devices = new ArrayList<>();
      for (int i = d * size; i < (d + 1) * size; i++) {
        devices.add(i);
      }
      domains.add(devices);
    }
    return GpuTopology.of(domains);
  }

  /**
   * Adds the subtree under {@code parent}, each queue before its children, with the GPU quota of
   * the leaves under it.
   */
  private static void queues(
      BenchWorkload spec,
      Optional<String> parent,
      String prefix,
      int level,
      double leafQuota,
      List<QueueInfo> out,
      List<String> leaves) {
    for (int i = 0; i < spec.queueWidth(); i++) {
      String name = prefix + "-" + i;
      double quota = leafQuota * Math.pow(spec.queueWidth(), spec.queueDepth() - level);
      out.add(queue(name, parent, quota, out.size()));
      if (level == spec.queueDepth()) {
        leaves.add(name);
      } else {
        queues(spec, Optional.of(name), name, level + 1, leafQuota, out, leaves);
      }
    }
  }

  private static QueueInfo queue(String name, double gpuQuota, long creationOrder) {
    return queue(name, Optional.empty(), gpuQuota, creationOrder);
  }

  /** A queue with a GPU quota, unlimited CPU and memory, weight 1 and no limits. */
  private static QueueInfo queue(
      String name, Optional<String> parent, double gpuQuota, long creationOrder) {
    return new QueueInfo(
        name,
        parent,
        QueueInfo.DEFAULT_PRIORITY,
        new QueueResource(gpuQuota, 1, QueueResource.UNLIMITED),
        new QueueResource(QueueResource.UNLIMITED, 1, QueueResource.UNLIMITED),
        new QueueResource(QueueResource.UNLIMITED, 1, QueueResource.UNLIMITED),
        Optional.empty(),
        Optional.empty(),
        creationOrder);
  }

  /**
   * One-pod running jobs: a 1-GPU pod on each free GPU, nodes taken round robin, then CPU-only pods
   * round robin over every node.
   */
  private static void running(
      BenchWorkload spec,
      List<NodeInfo> nodes,
      List<String> leaves,
      Random random,
      List<JobInfo> jobs) {
    List<NodeInfo> gpuNodes = nodes.stream().filter(n -> n.gpuCount() > 0).toList();
    long gpuSlots = (long) gpuNodes.size() * spec.gpusPerNode();
    for (int k = 0; k < spec.runningPods(); k++) {
      boolean gpuPod = k < gpuSlots;
      NodeInfo node = gpuPod ? gpuNodes.get(k % gpuNodes.size()) : nodes.get(k % nodes.size());
      Resources request =
          gpuPod
              ? Resources.of(4000, 16 * GIB, GpuAmount.ofDevices(1))
              : Resources.of(250, GIB / 2, GpuAmount.ZERO);
      String jobName = String.format("run-%06d", k);
      String jobId = NAMESPACE + "/" + jobName;
      TaskInfo task =
          task(
              jobId,
              jobName,
              0,
              request,
              Optional.empty(),
              TaskStatus.RUNNING,
              Optional.of(node.name()),
              jobs.size());
      jobs.add(
          job(
              jobId,
              jobName,
              leaves.get(random.nextInt(leaves.size())),
              50,
              NOW.minusSeconds(100_000L + spec.runningPods() - k),
              jobs.size(),
              1,
              Optional.empty(),
              ImmutableList.of(task)));
    }
  }

  private static void pending(
      BenchWorkload spec, List<String> leaves, Random random, List<JobInfo> jobs) {
    long taskOrder = (long) jobs.size() * 2;
    for (int j = 0; j < spec.pendingJobs(); j++) {
      String jobName = String.format("job-%06d", j);
      String jobId = NAMESPACE + "/" + jobName;
      double kind = random.nextDouble();
      boolean fractional = kind < spec.fractionalShare();
      boolean cpuOnly = !fractional && kind < spec.fractionalShare() + spec.cpuOnlyShare();
      int size = random.nextInt(3);
      Resources request;
      Optional<GpuSharingRequest> sharing = Optional.empty();
      if (cpuOnly) {
        request =
            Resources.of(CPU_POD_CPU_MILLIS[size], CPU_POD_MEMORY_GIB[size] * GIB, GpuAmount.ZERO);
      } else {
        GpuAmount gpus = fractional ? GpuAmount.ZERO : GpuAmount.ofDevices(spec.gpusPerPod());
        request = Resources.of(GPU_POD_CPU_MILLIS[size], GPU_POD_MEMORY_GIB[size] * GIB, gpus);
        if (fractional) {
          sharing = Optional.of(GpuSharingRequest.ofFraction(spec.gpuFraction(), 1));
        }
      }
      ImmutableList.Builder<TaskInfo> tasks = ImmutableList.builder();
      for (int t = 0; t < spec.gangSize(); t++) {
        tasks.add(
            task(
                jobId,
                jobName,
                t,
                request,
                sharing,
                TaskStatus.PENDING,
                Optional.empty(),
                taskOrder++));
      }
      jobs.add(
          job(
              jobId,
              jobName,
              leaves.get(random.nextInt(leaves.size())),
              random.nextInt(4) == 0 ? 100 : 50,
              NOW.minusSeconds(spec.pendingJobs() - (long) j),
              jobs.size(),
              spec.gangSize(),
              spec.topologyLevels() > 0
                  ? Optional.of(BenchTopology.constraint(TOPOLOGY, spec.topologyLevels()))
                  : Optional.empty(),
              tasks.build()));
    }
  }

  private static TaskInfo task(
      String jobId,
      String jobName,
      int index,
      Resources request,
      Optional<GpuSharingRequest> sharing,
      TaskStatus status,
      Optional<String> node,
      long creationOrder) {
    return new TaskInfo(
        jobId + "/" + index,
        String.valueOf(index),
        jobName + "-" + index,
        NAMESPACE,
        jobId,
        JobInfo.DEFAULT_POD_SET,
        request,
        sharing,
        status,
        node,
        ImmutableList.of(),
        GpuAmount.ZERO,
        OptionalInt.empty(),
        ImmutableSortedMap.of(),
        PodPlacementRequirements.none(),
        creationOrder);
  }

  private static JobInfo job(
      String jobId,
      String jobName,
      String queue,
      int priority,
      Instant createdAt,
      long creationOrder,
      int minMember,
      Optional<TopologyConstraint> constraint,
      ImmutableList<TaskInfo> tasks) {
    return new JobInfo(
        jobId,
        jobName,
        NAMESPACE,
        queue,
        priority,
        true,
        createdAt,
        creationOrder,
        new SubGroupSet(
            "",
            OptionalInt.empty(),
            ImmutableList.of(new PodSet(JobInfo.DEFAULT_POD_SET, minMember)),
            constraint),
        tasks);
  }
}
