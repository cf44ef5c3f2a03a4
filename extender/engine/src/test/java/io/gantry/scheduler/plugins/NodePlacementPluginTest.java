package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §6 nodeplacement: binpack scores the fullest candidate 9 and the emptiest 0,
 * linearly in idle + releasing whole GPUs (GPU tasks) or CPU millicores (CPU-only tasks); 9 for all
 * when min == max, 0 when nothing is free or the node lacks the resource. Spread scores the free
 * fraction of the node.
 */
class NodePlacementPluginTest {
  private static final Placement BINPACK = Placement.DEFAULTS;
  private static final Placement SPREAD =
      new Placement(PlacementStrategy.SPREAD, PlacementStrategy.SPREAD);
  private static final Placement GPU_SPREAD_CPU_BINPACK =
      new Placement(PlacementStrategy.SPREAD, PlacementStrategy.BINPACK);

  private static final Tasks.Builder GPU_TASK = Tasks.task("t").gpus(1);
  private static final Tasks.Builder CPU_TASK = Tasks.task("t").cpu("1");

  record Case(
      String name,
      Placement args,
      List<NodeInfo> nodes,
      List<TaskInfo> running,
      Tasks.Builder task,
      Map<String, Double> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "binpack GPU: fullest node 9, emptiest 0, linear between, CPU-only node 0",
            BINPACK,
            List.of(
                gpuNode("empty", 8), gpuNode("mid", 8), gpuNode("full", 8), cpuNode("cpu", "64")),
            List.of(whole("mid", 4), whole("full", 6)),
            GPU_TASK,
            ImmutableMap.of("cpu", 0.0, "empty", 0.0, "full", 9.0, "mid", 6.0)),
        new Case(
            "binpack GPU: equal free GPUs everywhere (min == max) scores 9",
            BINPACK,
            List.of(gpuNode("a", 8), gpuNode("b", 8)),
            List.of(whole("a", 2), whole("b", 2)),
            GPU_TASK,
            ImmutableMap.of("a", 9.0, "b", 9.0)),
        new Case(
            "binpack GPU: releasing GPUs count as free",
            BINPACK,
            List.of(gpuNode("a", 8), gpuNode("b", 8)),
            List.of(releasingWhole("a", 6), whole("b", 6)),
            GPU_TASK,
            ImmutableMap.of("a", 0.0, "b", 9.0)),
        new Case(
            "binpack GPU: no free GPU on any node (max == 0) scores 0",
            BINPACK,
            List.of(gpuNode("a", 4), gpuNode("b", 4)),
            List.of(whole("a", 4), whole("b", 4)),
            GPU_TASK,
            ImmutableMap.of("a", 0.0, "b", 0.0)),
        new Case(
            "binpack GPU: a shared GPU takes its whole device",
            BINPACK,
            List.of(gpuNode("a", 2), gpuNode("b", 2)),
            List.of(Tasks.task("f").gpuFraction(0.25).running("a").onGpuGroups(0.25, "g1").build()),
            Tasks.task("t").gpuFraction(0.5),
            ImmutableMap.of("a", 9.0, "b", 0.0)),
        new Case(
            "binpack CPU-only task scores by free CPU on every node",
            BINPACK,
            List.of(cpuNode("a", "64"), cpuNode("b", "64"), gpuNode("gpu", 8)),
            List.of(cpu("a", "48"), cpu("gpu", "32")),
            CPU_TASK,
            ImmutableMap.of("a", 9.0, "b", 0.0, "gpu", 6.0)),
        new Case(
            "spread GPU: free fraction of the node's GPUs, 0 without GPUs",
            SPREAD,
            List.of(gpuNode("a", 8), gpuNode("b", 4), cpuNode("cpu", "64")),
            List.of(whole("a", 6)),
            GPU_TASK,
            ImmutableMap.of("a", 0.25, "b", 1.0, "cpu", 0.0)),
        new Case(
            "spread GPU: releasing GPUs count as free",
            SPREAD,
            List.of(gpuNode("a", 8)),
            List.of(whole("a", 4), releasingWhole("a", 2)),
            GPU_TASK,
            ImmutableMap.of("a", 0.5)),
        new Case(
            "spread CPU-only: free fraction of the node's CPU",
            SPREAD,
            List.of(cpuNode("a", "64"), cpuNode("b", "32")),
            List.of(cpu("a", "16")),
            CPU_TASK,
            ImmutableMap.of("a", 0.75, "b", 1.0)),
        new Case(
            "GPU spread with CPU binpack: a CPU-only task is bin-packed",
            GPU_SPREAD_CPU_BINPACK,
            List.of(cpuNode("a", "64"), cpuNode("b", "64")),
            List.of(cpu("a", "16")),
            CPU_TASK,
            ImmutableMap.of("a", 9.0, "b", 0.0)),
        new Case(
            "GPU spread with CPU binpack: a GPU task is spread",
            GPU_SPREAD_CPU_BINPACK,
            List.of(gpuNode("a", 4), gpuNode("b", 4)),
            List.of(whole("a", 1)),
            GPU_TASK,
            ImmutableMap.of("a", 0.75, "b", 1.0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scoresNodes(Case c) {
    NodePlacementPlugin plugin = new NodePlacementPlugin(c.args());
    Session session =
        Sessions.open(
            Snapshots.of(
                c.nodes(),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("busy")
                        .minMember(0)
                        .task(c.running().toArray(TaskInfo[]::new))
                        .build(),
                    Jobs.job("p").task(c.task()).build())),
            plugin);
    TaskState task = session.task("ns/p/t");

    plugin.preOrder(task, session.nodes());

    for (NodeState node : session.nodes()) {
      assertThat(plugin.score(task, node))
          .as("score of %s", node.name())
          .isCloseTo(c.expected().get(node.name()), within(1e-9));
    }
    assertThat(session.nodes())
        .extracting(NodeState::name)
        .containsExactlyInAnyOrderElementsOf(c.expected().keySet());
  }

  private static NodeInfo gpuNode(String name, int gpus) {
    return Nodes.node(name).gpus(gpus).cpu("64").build();
  }

  private static NodeInfo cpuNode(String name, String cores) {
    return Nodes.node(name).cpu(cores).build();
  }

  private static TaskInfo whole(String node, int gpus) {
    return Tasks.task(node + "-w" + gpus).gpus(gpus).running(node).build();
  }

  private static TaskInfo releasingWhole(String node, int gpus) {
    return Tasks.task(node + "-r" + gpus).gpus(gpus).releasing(node).build();
  }

  private static TaskInfo cpu(String node, String cores) {
    return Tasks.task(node + "-c" + cores).cpu(cores).running(node).build();
  }
}
