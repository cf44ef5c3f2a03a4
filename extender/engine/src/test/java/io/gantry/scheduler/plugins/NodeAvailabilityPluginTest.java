package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskInfo;
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

/** kai-reference §6: 1000 when the task fits in idle resources now, without releasing ones. */
class NodeAvailabilityPluginTest {
  record Case(
      String name, NodeInfo node, List<TaskInfo> placed, Tasks.Builder task, double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "whole GPUs fit in idle",
            Nodes.node("n1").gpus(4).build(),
            List.of(Tasks.task("r").gpus(2).running("n1").build()),
            Tasks.task("t").gpus(2),
            1000),
        new Case(
            "whole GPUs fit only with releasing ones",
            Nodes.node("n1").gpus(2).build(),
            List.of(Tasks.task("r").gpus(2).releasing("n1").build()),
            Tasks.task("t").gpus(1),
            0),
        new Case(
            "CPU fits only with releasing CPU",
            Nodes.node("n1").cpu("8").build(),
            List.of(Tasks.task("r").cpu("8").releasing("n1").build()),
            Tasks.task("t").cpu("1"),
            0),
        new Case(
            "does not fit at all",
            Nodes.node("n1").gpus(1).build(),
            List.of(),
            Tasks.task("t").gpus(2),
            0),
        new Case(
            "fraction fits the idle portion of a shared GPU",
            Nodes.node("n1").gpus(1).build(),
            List.of(Tasks.task("r").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g").build()),
            Tasks.task("t").gpuFraction(0.5),
            1000),
        new Case(
            "fraction fits only once a releasing fraction is gone",
            Nodes.node("n1").gpus(1).build(),
            List.of(
                Tasks.task("r").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g").build(),
                Tasks.task("x").gpuFraction(0.5).releasing("n1").onGpuGroups(0.5, "g").build()),
            Tasks.task("t").gpuFraction(0.5),
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scores(Case c) {
    NodeAvailabilityPlugin plugin = new NodeAvailabilityPlugin();
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(c.node()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("busy").minMember(0).task(c.placed().toArray(TaskInfo[]::new)).build(),
                    Jobs.job("p").task(c.task()).build())),
            plugin);

    assertThat(plugin.score(session.task("ns/p/t"), session.node("n1"))).isEqualTo(c.expected());
  }
}
