package io.gantry.scheduler.plugins;

import static io.gantry.scheduler.plugins.ScenarioGeneratorFixture.base;
import static io.gantry.scheduler.plugins.ScenarioGeneratorFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** sg-nodelocalgreedy (kai-reference §4.11): one scenario per node of the last popped job. */
class NodeLocalGreedyPluginTest {
  private final NodeLocalGreedyPlugin plugin = new NodeLocalGreedyPlugin();

  private static Session session() {
    return ScenarioGeneratorFixture.session(
        List.of(Nodes.node("n1").gpus(2).build(), Nodes.node("n2").gpus(2).build()),
        List.of(
            Jobs.job("a").queue("q").task(Tasks.task("t").gpus(1).running("n1")).build(),
            Jobs.job("b").queue("q").task(Tasks.task("t").gpus(1).running("n2")).build(),
            Jobs.job("gang")
                .queue("q")
                .minMember(2)
                .task(Tasks.task("x").gpus(1).running("n1"), Tasks.task("y").gpus(1).running("n2"))
                .build(),
            Jobs.job("p").queue("q").task(Tasks.task("t").gpus(2)).build()));
  }

  @Test
  void eachNodeOfTheLatestJobGetsItsBatchesWhole() {
    Session s = session();

    assertThat(
            ids(
                plugin.scenarios(
                    base(s, "ns/p", List.of(), List.of("ns/a", "ns/gang"), Set.of()), s)))
        .containsExactly(
            List.of("ns/a/t", "ns/gang/x", "ns/gang/y"), List.of("ns/gang/x", "ns/gang/y"));
  }

  @Test
  void withoutNewVictimsOnlyTheRecordedOnesAreTried() {
    Session s = session();

    assertThat(ids(plugin.scenarios(base(s, "ns/p", List.of("ns/a"), List.of(), Set.of()), s)))
        .containsExactly(List.of());
    assertThat(plugin.scenarios(base(s, "ns/p", List.of(), List.of(), Set.of()), s)).isEmpty();
  }
}
