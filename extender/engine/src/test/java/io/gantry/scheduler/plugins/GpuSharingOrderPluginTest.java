package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
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

/**
 * kai-reference §6 gpusharingorder: 10000 when the node has an existing shared GPU group the
 * fractional task fits on, so fractions pack together; 0 otherwise and for non-shared tasks.
 */
class GpuSharingOrderPluginTest {
  record Case(String name, List<TaskInfo> placed, Tasks.Builder task, double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "fraction fits an existing shared GPU",
            List.of(shared("a", 0.5, "g")),
            Tasks.task("t").gpuFraction(0.5),
            10_000),
        new Case(
            "fraction too big for the existing shared GPU",
            List.of(shared("a", 0.5, "g")),
            Tasks.task("t").gpuFraction(0.6),
            0),
        new Case(
            "existing shared GPU is full",
            List.of(shared("a", 0.5, "g"), shared("b", 0.5, "g")),
            Tasks.task("t").gpuFraction(0.1),
            0),
        new Case("node with only whole free GPUs", List.of(), Tasks.task("t").gpuFraction(0.5), 0),
        new Case(
            "whole-GPU task ignores shared GPUs",
            List.of(shared("a", 0.5, "g")),
            Tasks.task("t").gpus(1),
            0),
        new Case(
            "memory request converted on the node fits an existing shared GPU",
            List.of(shared("a", 0.5, "g")),
            Tasks.task("t").gpuMemoryMib(20_480),
            10_000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scores(Case c) {
    GpuSharingOrderPlugin plugin = new GpuSharingOrderPlugin();
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(4).gpuMemoryMib(81_920).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("busy").minMember(0).task(c.placed().toArray(TaskInfo[]::new)).build(),
                    Jobs.job("p").task(c.task()).build())),
            plugin);

    assertThat(plugin.score(session.task("ns/p/t"), session.node("n1"))).isEqualTo(c.expected());
  }

  private static TaskInfo shared(String name, double portion, String group) {
    return Tasks.task(name).gpuFraction(portion).running("n1").onGpuGroups(portion, group).build();
  }
}
