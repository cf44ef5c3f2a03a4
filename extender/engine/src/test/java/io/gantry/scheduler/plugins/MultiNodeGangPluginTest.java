package io.gantry.scheduler.plugins;

import static io.gantry.scheduler.plugins.ScenarioGeneratorFixture.base;
import static io.gantry.scheduler.plugins.ScenarioGeneratorFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * sg-multinodegang (kai-reference §4.11): nodes by ascending capacity after eviction, the smallest
 * prefix covering the pending demand first, then doubling.
 */
class MultiNodeGangPluginTest {
  private final MultiNodeGangPlugin plugin = new MultiNodeGangPlugin();

  /** Nodes n0..n4 with 4 GPUs; on node i, job v-i holds i+1 GPUs; a 2-pod gang of 2 GPUs each. */
  private static Session session() {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(Nodes.node("n" + i).gpus(4).build());
      jobs.add(
          Jobs.job("v-" + i).queue("q").task(Tasks.task("t").gpus(i + 1).running("n" + i)).build());
    }
    jobs.add(Jobs.job("p").queue("q").minMember(2).tasks(2, t -> t.gpus(2)).build());
    return ScenarioGeneratorFixture.session(nodes, jobs);
  }

  @Test
  void startsWithTheSmallestCoveringPrefixAndDoubles() {
    Session s = session();
    // capacity after eviction: n0 4 (3 free + 1), n1 4, n2 4, n3 4; demand 4 GPUs, no baseline
    List<List<String>> scenarios =
        ids(
            plugin.scenarios(
                base(
                    s,
                    "ns/p",
                    List.of(),
                    List.of("ns/v-3", "ns/v-2", "ns/v-1", "ns/v-0"),
                    Set.of()),
                s));

    assertThat(scenarios)
        .containsExactly(
            List.of("ns/v-3/t"),
            List.of("ns/v-3/t", "ns/v-2/t"),
            List.of("ns/v-3/t", "ns/v-2/t", "ns/v-1/t", "ns/v-0/t"));
  }

  @Test
  void feasibleNodesWithoutVictimsCountTowardTheDemand() {
    Session s = session();
    // n0 offers 3 free GPUs without evicting anything; one more node covers the rest
    List<List<String>> scenarios =
        ids(
            plugin.scenarios(
                base(s, "ns/p", List.of(), List.of("ns/v-3", "ns/v-2"), Set.of("n0")), s));

    assertThat(scenarios).first().isEqualTo(List.of("ns/v-3/t"));
  }
}
