package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.framework.fit.NodeNotReady;
import io.gantry.scheduler.framework.fit.TooManyPods;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * However nodes were checked — in node order, in score order, or one per class — the tally gives
 * NoNodeFits one form: equal reasons in one group named after its first node, groups in the order
 * of their first node; the summary counts every node.
 */
class RejectionTallyTest {
  private static final ImmutableList<NodeFitReason> NOT_READY =
      ImmutableList.of(new NodeNotReady());
  private static final ImmutableList<NodeFitReason> FULL = ImmutableList.of(new TooManyPods(110));

  private final Session session =
      Session.open(
          Snapshots.of(
              List.of(
                  Nodes.node("n1").build(),
                  Nodes.node("n2").build(),
                  Nodes.node("n3").build(),
                  Nodes.node("n4").build()),
              List.of(Queues.queue("q").build()),
              List.of()),
          new PluginRegistry().build(Map.of(), Placement.DEFAULTS));

  @Test
  void nodesInAnyOrderGroupByReasonsInNodeOrder() {
    RejectionTally tally = new RejectionTally();
    tally.add(node("n4"), NOT_READY, 1);
    tally.add(node("n2"), FULL, 1);
    tally.add(node("n1"), NOT_READY, 1);

    assertThat(tally.build(4))
        .isEqualTo(
            new NoNodeFits(
                4,
                ImmutableList.of(
                    new NoNodeFits.NodeRejection("n1", NOT_READY, 2),
                    new NoNodeFits.NodeRejection("n2", FULL, 1))));
  }

  @Test
  void aClassCountsItsNodes() {
    RejectionTally tally = new RejectionTally();
    tally.add(node("n2"), FULL, 3);
    tally.add(node("n1"), NOT_READY, 1);

    NoNodeFits fits = tally.build(4);

    assertThat(fits.rejected()).isEqualTo(4);
    assertThat(FitMessages.summary(fits))
        .isEqualTo(
            "no nodes with enough resources were found: 1 node(s) were not ready. \n"
                + "3 node(s) pod number exceeded.");
  }

  private NodeState node(String name) {
    return session.node(name);
  }
}
