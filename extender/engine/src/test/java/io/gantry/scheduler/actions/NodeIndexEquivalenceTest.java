package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.NodeScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
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
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.plugins.PluginRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The allocator walks the node index instead of scoring every node when the scorers' order is the
 * index's. Adding a scorer that scores 0 everywhere (and does not declare an index order) forces
 * the full scan; both must decide exactly the same on varied clusters: nodes with and without GPU
 * interconnect domains, running tasks whose devices are chosen as they are placed, pending tasks of
 * one to four GPUs.
 */
class NodeIndexEquivalenceTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * Interconnect domains of an 8-GPU node: two of four, four of two, one of eight, and two of three
   * with GPUs 6 and 7 in none.
   */
  private static final List<List<List<Integer>>> DOMAIN_LAYOUTS =
      List.of(
          List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7)),
          List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5), List.of(6, 7)),
          List.of(List.of(0, 1, 2, 3, 4, 5, 6, 7)),
          List.of(List.of(0, 1, 2), List.of(3, 4, 5)));

  /** Scores nothing, and by not declaring an index order makes the allocator scan every node. */
  private static final class ZeroScorer implements NodeScorer {
    @Override
    public String name() {
      return "zero";
    }

    @Override
    public void preOrder(TaskState task, List<NodeState> candidates) {}

    @Override
    public double score(TaskState task, NodeState node) {
      return 0;
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void indexWalkDecidesLikeTheFullScan(long seed) {
    ClusterSnapshot snapshot = randomCluster(new Random(seed));

    List<Decision> viaIndex = allocate(snapshot, List.of());
    List<Decision> fullScan = allocate(snapshot, List.of(new ZeroScorer()));

    assertThat(viaIndex).isNotEmpty();
    assertThat(viaIndex).isEqualTo(fullScan);
  }

  private static List<Decision> allocate(ClusterSnapshot snapshot, List<Plugin> extra) {
    PluginHooks defaults = new PluginRegistry().build(Map.of(), Placement.DEFAULTS);
    List<Plugin> plugins = new ArrayList<>(defaults.plugins());
    plugins.addAll(extra);
    Session session = Session.open(snapshot, new PluginHooks(plugins));
    new AllocateAction().execute(session);
    return session.decisions();
  }

  private static ClusterSnapshot randomCluster(Random random) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String name = String.format("node-%02d", i);
      ImmutableList<Taint> taints =
          random.nextInt(8) == 0
              ? ImmutableList.of(new Taint("dedicated", "infra", TaintEffect.NO_SCHEDULE))
              : ImmutableList.of();
      int gpus = random.nextInt(5) == 0 ? 0 : 8;
      GpuTopology topology =
          gpus > 0 && random.nextBoolean()
              ? GpuTopology.of(DOMAIN_LAYOUTS.get(random.nextInt(DOMAIN_LAYOUTS.size())))
              : GpuTopology.NONE;
      nodes.add(
          new NodeInfo(
              name,
              ImmutableSortedMap.of(NodeInfo.HOSTNAME_LABEL, name),
              taints,
              Resources.of(32_000, 256L << 30, GpuAmount.ofDevices(gpus)),
              81920,
              true,
              110,
              false,
              true,
              topology));
    }
    List<QueueInfo> queues = new ArrayList<>();
    for (int q = 0; q < 3; q++) {
      queues.add(
          new QueueInfo(
              "q" + q,
              Optional.empty(),
              100,
              new QueueResource(40, 1, -1),
              new QueueResource(-1, 1, -1),
              new QueueResource(-1, 1, -1),
              Optional.empty(),
              Optional.empty(),
              q));
    }
    List<JobInfo> jobs = new ArrayList<>();
    long order = 0;
    for (int j = 0; j < 60; j++) {
      String jobId = "default/j" + j;
      int replicas = 1 + random.nextInt(3);
      boolean running = j < 25;
      List<TaskInfo> tasks = new ArrayList<>();
      for (int t = 0; t < replicas; t++) {
        String node = nodes.get(random.nextInt(nodes.size())).name();
        boolean onGpuNode = nodes.stream().anyMatch(n -> n.name().equals(node) && n.gpuCount() > 0);
        TaskStatus status =
            running && onGpuNode
                ? (random.nextInt(4) == 0 ? TaskStatus.RELEASING : TaskStatus.RUNNING)
                : TaskStatus.PENDING;
        boolean placed = status != TaskStatus.PENDING;
        boolean shared = !placed && random.nextInt(6) == 0;
        tasks.add(
            new TaskInfo(
                jobId + "/t" + t,
                "t" + t,
                "j" + j + "-t" + t,
                "default",
                jobId,
                JobInfo.DEFAULT_POD_SET,
                Resources.of(
                    1000 + random.nextInt(4) * 1000,
                    1L << 30,
                    GpuAmount.ofDevices(shared ? 0 : 1 + random.nextInt(placed ? 2 : 4))),
                shared ? Optional.of(GpuSharingRequest.ofFraction(0.5, 1)) : Optional.empty(),
                status,
                placed ? Optional.of(node) : Optional.empty(),
                ImmutableList.of(),
                GpuAmount.ZERO,
                OptionalInt.empty(),
                ImmutableSortedMap.of(),
                PodPlacementRequirements.none(),
                order++));
      }
      jobs.add(
          new JobInfo(
              jobId,
              "j" + j,
              "default",
              "q" + (j % 3),
              50,
              true,
              NOW.plusSeconds(j),
              j,
              new SubGroupSet(
                  "",
                  OptionalInt.empty(),
                  ImmutableList.of(new PodSet(JobInfo.DEFAULT_POD_SET, replicas))),
              ImmutableList.copyOf(tasks)));
    }
    return new ClusterSnapshot(
        NOW, ImmutableList.copyOf(nodes), ImmutableList.copyOf(queues), ImmutableList.copyOf(jobs));
  }
}
