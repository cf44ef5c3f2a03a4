package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** kai-reference §6: 10 for a CPU-only task on a CPU-only node, else 0. */
class ResourceTypePluginTest {
  private static final NodeInfo CPU_NODE = Nodes.node("n1").cpu("32").build();
  private static final NodeInfo GPU_NODE = Nodes.node("n1").gpus(8).build();

  record Case(String name, NodeInfo node, Tasks.Builder task, double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("CPU-only task on a CPU-only node", CPU_NODE, Tasks.task("t").cpu("1"), 10),
        new Case("CPU-only task on a GPU node", GPU_NODE, Tasks.task("t").cpu("1"), 0),
        new Case("whole-GPU task on a GPU node", GPU_NODE, Tasks.task("t").gpus(1), 0),
        new Case("whole-GPU task on a CPU-only node", CPU_NODE, Tasks.task("t").gpus(1), 0),
        new Case("fractional task is a GPU task", CPU_NODE, Tasks.task("t").gpuFraction(0.5), 0),
        new Case(
            "MIG task is a GPU task",
            CPU_NODE,
            Tasks.task("t").extended("nvidia.com/mig-1g.10gb", 1),
            0),
        new Case("task asking for nothing is CPU-only", CPU_NODE, Tasks.task("t"), 10));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scores(Case c) {
    ResourceTypePlugin plugin = new ResourceTypePlugin();
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(c.node()),
                List.of(Queues.queue("q").build()),
                List.of(Jobs.job("p").task(c.task()).build())),
            plugin);

    assertThat(plugin.score(session.task("ns/p/t"), session.node("n1"))).isEqualTo(c.expected());
  }
}
