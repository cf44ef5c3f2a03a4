package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.IndexOrderedScorer;
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

/**
 * gpudomain: 50 when the node's free GPUs of one interconnect domain hold every whole GPU of a task
 * asking for two or more; 0 where the task would span domains, on a node without domains, and for
 * single-GPU and shared tasks (which then score as without the plugin).
 */
class GpuDomainPluginTest {
  private static final List<List<Integer>> TWO_DOMAINS =
      List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7));

  record Case(
      String name,
      NodeInfo node,
      List<TaskInfo> placed,
      Tasks.Builder task,
      double expected,
      IndexOrderedScorer.Order order) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    NodeInfo domains = Nodes.node("n1").gpus(8).gpuTopology(TWO_DOMAINS).build();
    NodeInfo noDomains = Nodes.node("n1").gpus(8).build();
    return Stream.of(
        new Case(
            "four free GPUs in the second domain hold a 4-GPU task",
            domains,
            List.of(whole("a", 1, 1)),
            Tasks.task("t").gpus(4),
            50,
            IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
        new Case(
            "four free GPUs split 2 + 2 across the domains",
            domains,
            List.of(whole("a", 0, 1), whole("b", 4, 5)),
            Tasks.task("t").gpus(4),
            0,
            IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
        new Case(
            "two GPUs fit the 2 + 2 split inside one domain",
            domains,
            List.of(whole("a", 0, 1), whole("b", 4, 5)),
            Tasks.task("t").gpus(2),
            50,
            IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
        new Case(
            "a domain's GPUs held by a releasing task are not free now",
            domains,
            List.of(whole("a", 0, 1), releasing("b", 4, 5)),
            Tasks.task("t").gpus(4),
            0,
            IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
        new Case(
            "eight GPUs never fit a 4-GPU domain",
            domains,
            List.of(),
            Tasks.task("t").gpus(8),
            0,
            IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
        new Case(
            "a node without domains scores as without the plugin",
            noDomains,
            List.of(),
            Tasks.task("t").gpus(4),
            0,
            IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
        new Case(
            "a single-GPU task scores the same everywhere",
            domains,
            List.of(),
            Tasks.task("t").gpus(1),
            0,
            IndexOrderedScorer.Order.CONSTANT),
        new Case(
            "a fraction on two devices scores the same everywhere",
            domains,
            List.of(),
            Tasks.task("t").gpuFraction(0.5).numDevices(2),
            0,
            IndexOrderedScorer.Order.CONSTANT),
        new Case(
            "a CPU-only task scores the same everywhere",
            domains,
            List.of(),
            Tasks.task("t").cpu("1"),
            0,
            IndexOrderedScorer.Order.CONSTANT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scores(Case c) {
    GpuDomainPlugin plugin = new GpuDomainPlugin();
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
    assertThat(plugin.orderFor(session.task("ns/p/t"))).isEqualTo(c.order());
  }

  private static TaskInfo whole(String name, Integer... devices) {
    return Tasks.task(name).gpus(devices.length).running("n1").gpuDevices(devices).build();
  }

  private static TaskInfo releasing(String name, Integer... devices) {
    return Tasks.task(name).gpus(devices.length).releasing("n1").gpuDevices(devices).build();
  }
}
