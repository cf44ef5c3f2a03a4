package io.gantry.scheduler.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The indexed engine decides and reports exactly what the baseline strategy (score and sort every
 * node for every task, recompute everything) does, on random workloads meant to reach every index
 * and cache: whole-GPU, fractional (one and two devices), GPU-memory and CPU-only tasks (some
 * asking for no CPU), gangs, CPU-only nodes, two GPU shapes, taints, cordoned and unready nodes,
 * few pod slots, nodes with half a GPU more than whole devices, nodes with GPU interconnect domains
 * (where multi-GPU tasks prefer a node whose free GPUs of one domain hold them), queue limits, and
 * a second cycle that starts from the first one's bindings (on the devices they were given) with
 * some of them releasing, so shared GPUs are half used and capacity is being released. Each seed
 * runs under bin-packing, under a random placement strategy, without the shared-GPU tier
 * (gpusharingorder disabled), and under the fragmentation-aware strategy (GPU nodes carry a GPU
 * model label some tasks select).
 *
 * <p>Seeds share nothing (the engine holds no static state), so they run concurrently.
 */
@Execution(ExecutionMode.CONCURRENT)
class SearchStrategyEquivalenceTest {
  private static final String[] TAINT_KEYS = {"dedicated", "gpu-type"};
  private static final GpuAmount HALF_DEVICE = GpuAmount.ofHundredths(50);
  private static final String GPU_MODEL = "nvidia.com/gpu.product";

  static Stream<Long> seeds() {
    return LongStream.rangeClosed(1, 40).boxed();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void indexedAndBaselineReportTheSame(long seed) {
    Random random = new Random(seed);
    List<SchedulerConfig> configs =
        List.of(
            SchedulerConfig.DEFAULTS,
            SchedulerConfig.of(
                SchedulerConfig.DEFAULT_ACTIONS,
                Map.of(),
                new Placement(strategy(random), strategy(random))),
            // without the shared-GPU tier a fraction's node order is bin-packing alone
            SchedulerConfig.of(
                SchedulerConfig.DEFAULT_ACTIONS,
                Map.of(
                    "gpusharingorder",
                    new PluginSetting(Optional.of(false), ImmutableSortedMap.of())),
                Placement.DEFAULTS),
            // Gantry's policy scores one node per group of equal state (NodeGroupWalk), and
            // learns from jobs asked about out of creation order
            SchedulerConfig.of(
                SchedulerConfig.DEFAULT_ACTIONS,
                Map.of(),
                new Placement(
                    PlacementStrategy.FRAGMENTATION_AWARE, PlacementStrategy.FRAGMENTATION_AWARE)));
    List<NodeInfo> nodes = nodes(random);
    List<QueueInfo> queues = queues(random);
    List<JobInfo> first = jobs(random, "a", 120);
    ClusterSnapshot start = Snapshots.of(nodes, queues, first);
    for (SchedulerConfig config : configs) {
      CycleResult indexed = run(config, SearchStrategy.INDEXED, start);
      assertThat(run(config, SearchStrategy.BASELINE, start)).isEqualTo(indexed);

      List<JobInfo> second = new ArrayList<>(placed(first, indexed, random));
      second.addAll(jobs(random, "b", 80));
      ClusterSnapshot next = Snapshots.of(nodes, queues, second);
      CycleResult again = run(config, SearchStrategy.INDEXED, next);
      assertThat(run(config, SearchStrategy.BASELINE, next)).isEqualTo(again);

      assertThat(indexed.decisions()).as("the workload places something").isNotEmpty();
      assertThat(
              Stream.concat(indexed.jobs().stream(), again.jobs().stream())
                  .flatMap(j -> j.tasks().stream())
                  .filter(t -> t.status() == TaskStatus.PENDING)
                  .map(TaskOutcome::fitMessage))
          .as("and leaves something unplaced with a fit message")
          .anyMatch(Optional::isPresent);
    }
  }

  private static CycleResult run(
      SchedulerConfig config, SearchStrategy strategy, ClusterSnapshot snapshot) {
    return new SchedulerWiring().cycle(config, strategy).run(snapshot);
  }

  private static PlacementStrategy strategy(Random random) {
    return random.nextBoolean() ? PlacementStrategy.BINPACK : PlacementStrategy.SPREAD;
  }

  private static List<NodeInfo> nodes(Random random) {
    List<NodeInfo> out = new ArrayList<>();
    int count = 20 + random.nextInt(20);
    for (int i = 0; i < count; i++) {
      Nodes.Builder node = Nodes.node(String.format("node-%02d", i));
      int shape = random.nextInt(5);
      if (shape < 2) {
        node.gpus(8).gpuMemoryMib(81_920).label(GPU_MODEL, "A100");
      } else if (shape < 4) {
        node.gpus(4).gpuMemoryMib(40_960).label(GPU_MODEL, i % 2 == 0 ? "V100" : "T4");
      }
      node.cpuMillis(8_000 + 4_000 * (long) random.nextInt(8));
      node.memory((32 + 32 * random.nextInt(4)) + "Gi");
      node.maxPods(random.nextInt(6) == 0 ? 2 + random.nextInt(3) : 110);
      if (shape < 4 && random.nextBoolean()) {
        node.gpuTopology(
            shape < 2
                ? List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7))
                : List.of(List.of(0, 1), List.of(2, 3)));
      }
      if (random.nextInt(8) == 0) {
        node.taint(TAINT_KEYS[random.nextInt(2)], "x", TaintEffect.NO_SCHEDULE);
      }
      if (random.nextInt(15) == 0) {
        node.cordoned();
      }
      if (random.nextInt(20) == 0) {
        node.notReady();
      }
      NodeInfo built = node.build();
      if (built.gpuCount() > 0 && random.nextInt(10) == 0) {
        // half a device more than its whole devices (the index counts whole devices)
        built =
            new NodeInfo(
                built.name(),
                built.labels(),
                built.taints(),
                built.allocatable().withGpus(built.allocatable().gpus().plus(HALF_DEVICE)),
                built.gpuMemoryMib(),
                built.gpuMemorySynced(),
                built.maxPods(),
                built.unschedulable(),
                built.ready(),
                built.gpuTopology());
      }
      out.add(built);
    }
    return out;
  }

  private static List<QueueInfo> queues(Random random) {
    List<QueueInfo> out = new ArrayList<>();
    out.add(Queues.queue("dept").gpu(40, 1, -1).build());
    for (int q = 0; q < 3; q++) {
      double limit = random.nextInt(3) == 0 ? 20 + random.nextInt(20) : -1;
      out.add(
          Queues.queue("team-" + q).parent("dept").gpu(10 + random.nextInt(10), 1, limit).build());
    }
    out.add(Queues.queue("other").gpu(10, 1, -1).build());
    return out;
  }

  private static List<JobInfo> jobs(Random random, String prefix, int count) {
    String[] leaves = {"team-0", "team-1", "team-2", "other"};
    List<JobInfo> out = new ArrayList<>();
    for (int j = 0; j < count; j++) {
      int size = 1 + (random.nextInt(4) == 0 ? random.nextInt(4) : 0);
      int minMember = 1 + random.nextInt(size);
      int kind = random.nextInt(10);
      long cpu = 500L * random.nextInt(9);
      long gpus = 1L + random.nextInt(4);
      double fraction = new double[] {0.25, 0.3, 0.5, 0.7}[random.nextInt(4)];
      int devices = random.nextInt(6) == 0 ? 2 : 1;
      boolean tolerates = random.nextInt(4) == 0;
      long memoryMib = 10_000 + 10_000L * (j % 3);
      // a GPU task of every fifth job asks for a GPU model
      Optional<String> model =
          kind < 6 && j % 5 == 0 ? Optional.of(j % 2 == 0 ? "A100" : "V100") : Optional.empty();
      out.add(
          Jobs.job(prefix + j)
              .queue(leaves[random.nextInt(leaves.length)])
              .priority(random.nextInt(3) == 0 ? 100 : 50)
              .createdAt(Snapshots.T0.plusSeconds(random.nextInt(50)))
              .minMember(minMember)
              .tasks(
                  size,
                  t -> {
                    t.cpuMillis(cpu).memory((1 + kind % 3) + "Gi");
                    if (tolerates) {
                      t.tolerations(
                          new Toleration(
                              TAINT_KEYS[0],
                              TolerationOperator.EXISTS,
                              "",
                              Optional.of(TaintEffect.NO_SCHEDULE)));
                    }
                    model.ifPresent(m -> t.nodeSelector(GPU_MODEL, m));
                    return switch (kind) {
                      case 0, 1, 2 -> t.gpus(gpus);
                      case 3, 4, 5 -> t.gpuFraction(fraction).numDevices(devices);
                      case 6 -> t.gpuMemoryMib(memoryMib);
                      default -> t;
                    };
                  })
              .build());
    }
    return out;
  }

  /** The jobs with the cycle's bindings running, about a quarter of them releasing. */
  private static List<JobInfo> placed(List<JobInfo> jobs, CycleResult result, Random random) {
    Map<String, BindDecision> binds = new HashMap<>();
    for (Decision d : result.decisions()) {
      if (d instanceof BindDecision b) {
        binds.put(b.taskId(), b);
      }
    }
    List<JobInfo> out = new ArrayList<>();
    for (JobInfo job : jobs) {
      ImmutableList.Builder<TaskInfo> tasks = ImmutableList.builder();
      for (TaskInfo t : job.tasks()) {
        BindDecision b = binds.get(t.id());
        if (b == null) {
          tasks.add(t);
          continue;
        }
        TaskStatus status = random.nextInt(4) == 0 ? TaskStatus.RELEASING : TaskStatus.RUNNING;
        tasks.add(
            new TaskInfo(
                t.id(),
                t.name(),
                t.podName(),
                t.namespace(),
                t.jobId(),
                t.podSetName(),
                t.request(),
                t.gpuSharing(),
                status,
                Optional.of(b.nodeName()),
                b.gpuGroups(),
                b.gpuPortion(),
                t.taskPriority(),
                t.labels(),
                t.placement(),
                t.creationOrder(),
                t.resourceClaims(),
                b.gpuDevices()));
      }
      out.add(
          new JobInfo(
              job.id(),
              job.name(),
              job.namespace(),
              job.queue(),
              job.priority(),
              job.preemptible(),
              job.createdAt(),
              job.creationOrder(),
              job.root(),
              tasks.build()));
    }
    return out;
  }
}
