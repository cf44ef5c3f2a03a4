package io.gantry.scheduler.bench;

import com.google.common.collect.ImmutableList;
import java.util.Arrays;
import java.util.Optional;

/**
 * The workloads of issue 13's targets, by name. Each is a {@link BenchWorkload} on the default
 * cluster (5,000 nodes × 8 GPUs, 49 leaf queues under 7 departments, seed 13) and the actions it
 * runs; {@code scaling} runs its workload at several cluster sizes.
 */
public enum BenchPreset {
  /** 50,000 pending 1-GPU pods onto 5,000 × 8 GPUs (40,000 fit; the rest get fit messages). */
  ALLOC_5K("alloc-5k", spec(5_000, 50_000, 1, 1, 0, 0, 0), ImmutableList.of("allocate")),
  /** The same pods, half asking for half a GPU and a tenth for no GPU. */
  MIXED_5K("mixed-5k", spec(5_000, 50_000, 1, 1, 0.5, 0.1, 0), ImmutableList.of("allocate")),
  /** 1,000 gangs of 8 pods × 8 GPUs: 625 fit, the rest get fit messages. */
  GANG_5K("gang-5k", spec(5_000, 1_000, 8, 8, 0, 0, 0), ImmutableList.of("allocate")),
  /** 150,000 running pods on 5,000 nodes and nothing to do. */
  IDLE_CYCLE_150K(
      "idle-cycle-150k", spec(5_000, 0, 1, 1, 0, 0, 150_000), ImmutableList.of("allocate")),
  /** Every GPU taken by a running pod; 20,000 pending 1-GPU pods that cannot fit. */
  UNSCHEDULABLE_20K(
      "unschedulable-20k", spec(5_000, 20_000, 1, 1, 0, 0, 40_000), ImmutableList.of("allocate")),
  /**
   * 1,000 nodes each running eight 1-GPU jobs; a 10-pod × 8-GPU job that cannot reclaim its way.
   */
  RECLAIM_UNSCHEDULABLE_1K(
      "reclaim-unschedulable-1k",
      spec(1_000, 1, 10, 8, 0, 0, 8_000).withReclaimShortfall(10),
      ImmutableList.of("allocate", "reclaim")),
  /**
   * One 512-pod gang of 1-GPU pods that must stay inside one rack of a 3-level topology (zones of 4
   * racks of 100 nodes) on 1,000 nodes already running 2 one-GPU pods each; run beside the same job
   * without the constraint.
   */
  TOPOLOGY_RACK_1K(
      "topology-rack-1k",
      spec(1_000, 1, 512, 1, 0, 0, 2_000).withTopologyLevels(3),
      ImmutableList.of("allocate")),
  /** mixed-5k's shape with 10 pending pods per node, at 1k, 2k, 5k and 10k nodes. */
  SCALING("scaling", spec(1_000, 10_000, 1, 1, 0.5, 0.1, 0), ImmutableList.of("allocate"));

  /** Cluster sizes the {@code scaling} preset runs at. */
  public static final ImmutableList<Integer> SCALING_NODES =
      ImmutableList.of(1_000, 2_000, 5_000, 10_000);

  /** Pending pods per node in the {@code scaling} preset. */
  public static final int SCALING_PODS_PER_NODE = 10;

  private final String presetName;

  // BenchWorkload is a record of immutable values; Error Prone cannot see that without an
  // annotation
  @SuppressWarnings("ImmutableEnumChecker")
  private final BenchWorkload spec;

  private final ImmutableList<String> actions;

  BenchPreset(String presetName, BenchWorkload spec, ImmutableList<String> actions) {
    this.presetName = presetName;
    this.spec = spec;
    this.actions = actions;
  }

  public String presetName() {
    return presetName;
  }

  public BenchWorkload spec() {
    return spec;
  }

  /** KAI's action names the preset's cycle runs. */
  public ImmutableList<String> actions() {
    return actions;
  }

  public static Optional<BenchPreset> byName(String name) {
    return Arrays.stream(values()).filter(p -> p.presetName.equals(name)).findFirst();
  }

  /** The workload of the {@code scaling} preset at {@code nodes} nodes. */
  public static BenchWorkload scalingSpec(int nodes) {
    return SCALING.spec.withNodes(nodes).withPendingJobs(nodes * SCALING_PODS_PER_NODE);
  }

  private static BenchWorkload spec(
      int nodes,
      int pendingJobs,
      int gangSize,
      int gpusPerPod,
      double fractionalShare,
      double cpuOnlyShare,
      int runningPods) {
    return new BenchWorkload(
        nodes,
        8,
        0,
        2,
        7,
        pendingJobs,
        gangSize,
        gpusPerPod,
        fractionalShare,
        0.5,
        cpuOnlyShare,
        runningPods,
        0,
        0,
        0,
        13);
  }
}
