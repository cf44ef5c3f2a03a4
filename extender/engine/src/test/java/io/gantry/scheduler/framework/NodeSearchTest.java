package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeNotReady;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What differs between the two searches besides how they walk nodes: the indexed one reuses derived
 * values while they are current and skips reclaimers its reach test rules out; the exhaustive one
 * recomputes everything and asks nothing. Both finders pick the same node and explain a refusal the
 * same way.
 */
class NodeSearchTest {
  private final NodeSearch indexed = new IndexedNodeSearch();
  private final NodeSearch exhaustive = new ExhaustiveNodeSearch();
  private final List<String> computed = new ArrayList<>();

  private String compute(String key, String suffix) {
    computed.add(key);
    return key + computed.size() + suffix;
  }

  @Test
  void theIndexedSearchReusesAValueWhileItIsCurrentAndReplacesItAfter() {
    Map<String, String> memo = new HashMap<>();

    String first = indexed.reuse(memo, "q", "a", (v, a) -> v.endsWith(a), this::compute);
    String again = indexed.reuse(memo, "q", "a", (v, a) -> v.endsWith(a), this::compute);
    String stale = indexed.reuse(memo, "q", "b", (v, a) -> v.endsWith(a), this::compute);

    assertThat(List.of(first, again, stale)).containsExactly("q1a", "q1a", "q2b");
    assertThat(memo).containsExactly(Map.entry("q", "q2b"));
  }

  @Test
  void theExhaustiveSearchComputesEveryTimeAndLeavesTheMemoAlone() {
    Map<String, String> memo = new HashMap<>();

    String first = exhaustive.reuse(memo, "q", "a", (v, a) -> v.endsWith(a), this::compute);
    String again = exhaustive.reuse(memo, "q", "a", (v, a) -> v.endsWith(a), this::compute);

    assertThat(List.of(first, again)).containsExactly("q1a", "q2a");
    assertThat(memo).isEmpty();
  }

  @Test
  void onlyTheIndexedSearchAsksWhetherAReclaimerIsOutOfReach() {
    assertThat(List.of(indexed.skipsReclaimer(() -> true), indexed.skipsReclaimer(() -> false)))
        .containsExactly(true, false);
    assertThat(
            exhaustive.skipsReclaimer(
                () -> {
                  throw new AssertionError("the exhaustive search asked");
                }))
        .isFalse();
  }

  @Test
  void bothFindersPickTheNodeTheScoreRanksFirstAndExplainARefusalAlike() {
    Session session =
        Sessions.openDefault(
            Snapshots.of(
                List.of(
                    Nodes.node("a").gpus(4).build(),
                    Nodes.node("b").gpus(2).build(),
                    Nodes.node("c").gpus(1).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("two").task(Tasks.task("t").gpus(2)).build(),
                    Jobs.job("big").task(Tasks.task("t").gpus(8)).build())));
    // a node with too few GPUs refuses; binpacking picks b, the fullest that fits
    NodeChecks checks =
        (task, node) ->
            node.info().gpuCount() >= task.info().request().gpus().wholeDevicesRoundedUp()
                ? ImmutableList.of()
                : ImmutableList.of(new NodeNotReady());
    TaskState two = session.task("ns/two/t");
    TaskState big = session.task("ns/big/t");

    for (NodeSearch search : List.of(indexed, exhaustive)) {
      NodeFinder finder = search.finder(session, checks);
      assertThat(finder.find(two).node().map(NodeState::name)).contains("b");
      assertThat(finder.find(big).whyNone())
          .contains(
              new NoNodeFits(
                  3,
                  ImmutableList.of(
                      new NoNodeFits.NodeRejection("a", ImmutableList.of(new NodeNotReady()), 3))));
    }
  }

  @Test
  void aFindingHoldsExactlyOneOfANodeAndAReason() {
    assertThatThrownBy(() -> new NodeFinding(Optional.empty(), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("exactly one of node and whyNone");
  }
}
