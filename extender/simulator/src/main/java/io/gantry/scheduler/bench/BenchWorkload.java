package io.gantry.scheduler.bench;

/**
 * A synthetic cluster and workload for {@code gantry bench}: every count and share the generator
 * reads, with the seed that makes it reproducible. Validated here so a bad flag names itself.
 *
 * @param nodes nodes in the cluster
 * @param gpusPerNode whole GPUs on each GPU node
 * @param cpuOnlyNodeShare share of the nodes that have no GPU (another node shape)
 * @param queueDepth levels of the queue tree; jobs go to its leaves
 * @param queueWidth children of each queue (and queues at the top level)
 * @param pendingJobs pending jobs (PodGroups)
 * @param gangSize pods per pending job, all needed together (minMember)
 * @param gpusPerPod whole GPUs each pending whole-GPU pod asks for
 * @param fractionalShare share of the pending jobs whose pods ask for a GPU fraction
 * @param gpuFraction the fraction those pods ask for ({@code gpu-fraction})
 * @param cpuOnlyShare share of the pending jobs whose pods ask for no GPU
 * @param runningPods pods already running, one per job: 1-GPU pods while GPUs last, CPU-only after
 * @param topologyLevels levels of a network topology whose racks the pending jobs must stay in (0:
 *     none)
 * @param reclaimShortfallGpus when positive, two queues instead of the tree: {@code reclaimer} with
 *     a quota of the pending pods' GPUs and the pending jobs, {@code victims} with the rest of the
 *     cluster as quota and the running pods, over its quota by this many GPUs fewer than the
 *     pending pods need, so reclaim must search and cannot succeed
 * @param gpuDomainsPerNode NVLink domains each GPU node publishes, of equal size, GPUs in index
 *     order (0: the nodes publish none)
 * @param seed seeds every random choice
 */
public record BenchWorkload(
    int nodes,
    int gpusPerNode,
    double cpuOnlyNodeShare,
    int queueDepth,
    int queueWidth,
    int pendingJobs,
    int gangSize,
    int gpusPerPod,
    double fractionalShare,
    double gpuFraction,
    double cpuOnlyShare,
    int runningPods,
    int topologyLevels,
    int reclaimShortfallGpus,
    int gpuDomainsPerNode,
    long seed) {

  public BenchWorkload {
    atLeast("nodes", nodes, 1);
    atLeast("gpus-per-node", gpusPerNode, 1);
    share("cpu-only-nodes", cpuOnlyNodeShare);
    atLeast("queue-depth", queueDepth, 1);
    atLeast("queue-width", queueWidth, 1);
    atLeast("pending-jobs", pendingJobs, 0);
    atLeast("gang-size", gangSize, 1);
    atLeast("gpus-per-pod", gpusPerPod, 1);
    share("fractional-share", fractionalShare);
    share("cpu-only-share", cpuOnlyShare);
    if (fractionalShare + cpuOnlyShare > 1) {
      throw new IllegalArgumentException(
          "fractional-share + cpu-only-share must be at most 1, got "
              + (fractionalShare + cpuOnlyShare));
    }
    if (!(gpuFraction > 0 && gpuFraction < 1)) {
      throw new IllegalArgumentException("gpu-fraction must be in (0, 1), got " + gpuFraction);
    }
    atLeast("running-pods", runningPods, 0);
    atLeast("topology-levels", topologyLevels, 0);
    atLeast("reclaim-shortfall", reclaimShortfallGpus, 0);
    atLeast("gpu-domains", gpuDomainsPerNode, 0);
    if (gpuDomainsPerNode > 0 && gpusPerNode % gpuDomainsPerNode != 0) {
      throw new IllegalArgumentException(
          "gpu-domains must divide gpus-per-node ("
              + gpusPerNode
              + ") into domains of equal size, got "
              + gpuDomainsPerNode);
    }
    if (Math.pow(queueWidth, queueDepth) > 10_000) {
      throw new IllegalArgumentException(
          "queue-width^queue-depth must be at most 10000 leaf queues, got "
              + queueWidth
              + "^"
              + queueDepth);
    }
  }

  /** Pending pods: jobs × gang size. */
  public long pendingPods() {
    return (long) pendingJobs * gangSize;
  }

  public BenchWorkload withNodes(int newNodes) {
    return new BenchWorkload(
        newNodes,
        gpusPerNode,
        cpuOnlyNodeShare,
        queueDepth,
        queueWidth,
        pendingJobs,
        gangSize,
        gpusPerPod,
        fractionalShare,
        gpuFraction,
        cpuOnlyShare,
        runningPods,
        topologyLevels,
        reclaimShortfallGpus,
        gpuDomainsPerNode,
        seed);
  }

  public BenchWorkload withPendingJobs(int newPendingJobs) {
    return new BenchWorkload(
        nodes,
        gpusPerNode,
        cpuOnlyNodeShare,
        queueDepth,
        queueWidth,
        newPendingJobs,
        gangSize,
        gpusPerPod,
        fractionalShare,
        gpuFraction,
        cpuOnlyShare,
        runningPods,
        topologyLevels,
        reclaimShortfallGpus,
        gpuDomainsPerNode,
        seed);
  }

  public BenchWorkload withTopologyLevels(int levels) {
    return new BenchWorkload(
        nodes,
        gpusPerNode,
        cpuOnlyNodeShare,
        queueDepth,
        queueWidth,
        pendingJobs,
        gangSize,
        gpusPerPod,
        fractionalShare,
        gpuFraction,
        cpuOnlyShare,
        runningPods,
        levels,
        reclaimShortfallGpus,
        gpuDomainsPerNode,
        seed);
  }

  public BenchWorkload withReclaimShortfall(int gpus) {
    return new BenchWorkload(
        nodes,
        gpusPerNode,
        cpuOnlyNodeShare,
        queueDepth,
        queueWidth,
        pendingJobs,
        gangSize,
        gpusPerPod,
        fractionalShare,
        gpuFraction,
        cpuOnlyShare,
        runningPods,
        topologyLevels,
        gpus,
        gpuDomainsPerNode,
        seed);
  }

  private static void atLeast(String flag, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(flag + " must be at least " + min + ", got " + value);
    }
  }

  private static void share(String flag, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(flag + " must be in [0, 1], got " + value);
    }
  }
}
