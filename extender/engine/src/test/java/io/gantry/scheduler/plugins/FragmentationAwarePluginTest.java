package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fragmentation-aware strategy places a task where it least hurts the cluster's ability to take
 * the task shapes it has seen, inside KAI's rules; bin-packing, KAI's default, does not.
 */
class FragmentationAwarePluginTest {
  private static final Placement FRAGMENTATION_AWARE =
      new Placement(PlacementStrategy.FRAGMENTATION_AWARE, PlacementStrategy.BINPACK);

  /**
   * Two nodes with a shared GPU each that can take the pending 0.3 of a GPU; the cluster has been
   * receiving half-GPU tasks (four run on the full node {@code c}). On {@code a} (no whole GPU
   * free, its shared GPU 0.6 free) the 0.3 would leave 0.3 that no half-GPU task can use; on {@code
   * b} (a whole GPU free, its shared GPU exactly 0.3 free) it fills the shared GPU and keeps the
   * whole one for two half-GPU tasks.
   */
  private static ClusterSnapshot twoNodes() {
    List<NodeInfo> nodes =
        List.of(
            Nodes.node("a").gpus(1).cpu("64").build(),
            Nodes.node("b").gpus(2).cpu("64").build(),
            Nodes.node("c").gpus(2).cpu("64").build());
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(
        Jobs.job("running")
            .minMember(0)
            .createdAt(Snapshots.T0.minusSeconds(600))
            .task(
                Tasks.task("on-a").gpuFraction(0.4).running("a").onGpuGroups(0.4, "ga").build(),
                Tasks.task("on-b").gpuFraction(0.7).running("b").onGpuGroups(0.7, "gb").build())
            .build());
    for (int i = 0; i < 4; i++) {
      jobs.add(
          Jobs.job("half-" + i)
              .createdAt(Snapshots.T0.minusSeconds(300 - i))
              .task(
                  Tasks.task("t")
                      .gpuFraction(0.5)
                      .running("c")
                      .onGpuGroups(0.5, "gc" + i / 2)
                      .build())
              .build());
    }
    jobs.add(
        Jobs.job("small").createdAt(Snapshots.T0).task(Tasks.task("t").gpuFraction(0.3)).build());
    return Snapshots.of(nodes, List.of(Queues.queue("q").build()), jobs);
  }

  @Test
  void choosesTheLessFragmentingNode() {
    assertThat(bind(run(twoNodes(), FRAGMENTATION_AWARE), "ns/small/t").nodeName()).isEqualTo("b");
  }

  @Test
  void binPackingChoosesTheOtherNode() {
    assertThat(bind(run(twoNodes(), Placement.DEFAULTS), "ns/small/t").nodeName()).isEqualTo("a");
  }

  @Test
  void choosesTheSharedGpuItFillsOverAWholeFreeOne() {
    BindDecision small = bind(run(twoNodes(), FRAGMENTATION_AWARE), "ns/small/t");

    assertThat(small.gpuGroups()).containsExactly("gb");
  }

  @Test
  void theSameSnapshotGivesTheSameDecisions() {
    assertThat(run(twoNodes(), FRAGMENTATION_AWARE))
        .isEqualTo(run(twoNodes(), FRAGMENTATION_AWARE));
  }

  /**
   * A pending one-GPU task fits on {@code x} and {@code y} (two idle GPUs each). The cluster has
   * seen half-GPU tasks (four, on {@code z1} and {@code z2}, which each can still take one), a
   * one-GPU task and a two-GPU task that asks for 32 CPUs. On {@code x} the task leaves one GPU, so
   * the node no longer takes a two-GPU task; on {@code y} (10 CPUs) it leaves 2 CPUs, so the node
   * no longer takes a half-GPU or a one-GPU task. By the mix alone {@code y} loses more (2.8
   * half-GPU tasks' weight and a one-GPU task's, against 1.4 for the two-GPU task); but {@code x}
   * is the only node that can still take a two-GPU task, while four can take a half-GPU task and
   * two a one-GPU task, so each shape counts divided by its number of such nodes, and {@code y}
   * loses less.
   */
  private static ClusterSnapshot lastNodeForALargeShape() {
    List<NodeInfo> nodes =
        List.of(
            Nodes.node("w").gpus(2).cpu("64").build(),
            Nodes.node("x").gpus(2).cpu("64").build(),
            Nodes.node("y").gpus(2).cpu("10").build(),
            Nodes.node("z1").gpus(2).cpu("64").build(),
            Nodes.node("z2").gpus(2).cpu("64").build());
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(
        Jobs.job("pair")
            .minMember(0)
            .createdAt(Snapshots.T0.minusSeconds(600))
            .task(Tasks.task("t").gpus(2).cpu("32").running("w").build())
            .build());
    for (int i = 0; i < 4; i++) {
      String node = "z" + (1 + i / 2);
      jobs.add(
          Jobs.job("half-" + i)
              .createdAt(Snapshots.T0.minusSeconds(300 - i))
              .task(
                  Tasks.task("t")
                      .gpuFraction(0.5)
                      .cpu("4")
                      .running(node)
                      .onGpuGroups(0.5, node + "-g" + i % 2)
                      .build())
              .build());
    }
    jobs.add(
        Jobs.job("one").createdAt(Snapshots.T0).task(Tasks.task("t").gpus(1).cpu("8")).build());
    return Snapshots.of(nodes, List.of(Queues.queue("q").build()), jobs);
  }

  @Test
  void keepsTheLastNodeThatTakesAShapeForIt() {
    assertThat(bind(run(lastNodeForALargeShape(), FRAGMENTATION_AWARE), "ns/one/t").nodeName())
        .isEqualTo("y");
  }

  /**
   * Nodes {@code p} and {@code q} with two idle GPUs each; the cluster has seen a half-GPU task and
   * a two-GPU one; two one-GPU tasks are pending, and {@code first} runs on {@code p} when {@code
   * firstRuns}.
   */
  private static ClusterSnapshot twoPendingOnes(boolean firstRuns) {
    Tasks.Builder first = Tasks.task("t").gpus(1).cpu("8");
    return Snapshots.of(
        List.of(
            Nodes.node("p").gpus(2).cpu("64").build(),
            Nodes.node("q").gpus(2).cpu("64").build(),
            Nodes.node("r").gpus(4).cpu("64").build()),
        List.of(Queues.queue("q").build()),
        List.of(
            Jobs.job("seen")
                .minMember(0)
                .createdAt(Snapshots.T0.minusSeconds(600))
                .task(
                    Tasks.task("half").gpuFraction(0.5).running("r").onGpuGroups(0.5, "g").build(),
                    Tasks.task("pair").gpus(2).running("r").build())
                .build(),
            Jobs.job("first").task(firstRuns ? first.running("p").build() : first.build()).build(),
            Jobs.job("second").task(Tasks.task("t").gpus(1).cpu("8")).build()));
  }

  @Test
  void aNodesCostFollowsTheTasksPlacedOnIt() {
    FragmentationAwarePlugin plugin = fragmentationAware();
    Session session = Sessions.open(twoPendingOnes(false), plugin);
    TaskState second = session.task("ns/second/t");
    NodeState p = session.node("p");
    plugin.preOrder(second, session.nodes());
    double before = plugin.cost(second, p);

    session.statement().allocate(session.task("ns/first/t"), p, List.of(), GpuAmount.ZERO);
    plugin.preOrder(second, session.nodes());
    double after = plugin.cost(second, p);

    FragmentationAwarePlugin fresh = fragmentationAware();
    Session placed = Sessions.open(twoPendingOnes(true), fresh);
    TaskState secondThere = placed.task("ns/second/t");
    fresh.preOrder(secondThere, placed.nodes());
    assertThat(after).isEqualTo(fresh.cost(secondThere, placed.node("p"))).isNotEqualTo(before);
  }

  private static FragmentationAwarePlugin fragmentationAware() {
    return new FragmentationAwarePlugin(
        FRAGMENTATION_AWARE,
        FragmentationAwarePlugin.DEFAULT_HALF_LIFE,
        FragmentationAwarePlugin.DEFAULT_ASK_EXPONENT);
  }

  private static CycleResult run(ClusterSnapshot snapshot, Placement placement) {
    return Cycles.run(snapshot, EvictionSettings.DEFAULTS, Map.of(), placement, "allocate");
  }

  private static BindDecision bind(CycleResult result, String taskId) {
    return result.decisions().stream()
        .filter(d -> d instanceof BindDecision b && b.taskId().equals(taskId))
        .map(BindDecision.class::cast)
        .findFirst()
        .orElseThrow(() -> new AssertionError(taskId + " was not bound: " + result.decisions()));
  }
}
