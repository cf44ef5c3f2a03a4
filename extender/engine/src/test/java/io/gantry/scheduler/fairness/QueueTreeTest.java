package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.plugins.ProportionArgs;
import io.gantry.scheduler.plugins.ProportionPlugin;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * kai-reference §5.2, §5.3, §5.8: allocation and request accounted on a leaf propagate to every
 * ancestor; fair shares are divided per resource, children dividing their parent's fair share.
 * Amounts are (GPUs, CPU millicores, memory bytes).
 */
class QueueTreeTest {
  private static final long GB = 1_000_000_000L;
  private static final ResourceVector CLUSTER = new ResourceVector(8, 16_000, 64e9);

  private static final List<QueueInfo> TREE =
      List.of(
          Queues.queue("root").build(),
          Queues.queue("p").parent("root").build(),
          Queues.queue("a").parent("p").gpu(2, 1, -1).build(),
          Queues.queue("b").parent("p").gpu(2, 1, -1).build(),
          Queues.queue("c").parent("root").build());

  @Test
  void allocationPropagatesToEveryAncestor() {
    QueueTree tree = new QueueTree(TREE, CLUSTER);

    tree.addAllocated("a", amounts(2, 1_000, GB), true);
    tree.addAllocated("b", amounts(1, 500, 0), false);

    assertThat(allocated(tree))
        .isEqualTo(
            Map.of(
                "root", List.of(3.0, 1_500.0, 1e9),
                "p", List.of(3.0, 1_500.0, 1e9),
                "a", List.of(2.0, 1_000.0, 1e9),
                "b", List.of(1.0, 500.0, 0.0),
                "c", List.of(0.0, 0.0, 0.0)));
    assertThat(tree.get("p").allocatedNonPreemptible(ResourceKind.GPU)).isEqualTo(2);
    assertThat(tree.get("root").allocatedNonPreemptible(ResourceKind.CPU)).isEqualTo(1_000);
    assertThat(tree.get("b").allocatedNonPreemptible(ResourceKind.GPU)).isZero();
  }

  @Test
  void deallocationGivesItBackAllTheWayUp() {
    QueueTree tree = new QueueTree(TREE, CLUSTER);
    tree.addAllocated("a", amounts(0.5, 1_000, GB), true);

    tree.removeAllocated("a", amounts(0.5, 1_000, GB), true);

    for (String q : List.of("root", "p", "a")) {
      for (ResourceKind r : ResourceKind.values()) {
        assertThat(tree.get(q).allocated(r)).as("%s %s", q, r).isZero();
        assertThat(tree.get(q).allocatedNonPreemptible(r)).as("%s %s", q, r).isZero();
      }
    }
  }

  @Test
  void requestPropagatesToEveryAncestor() {
    QueueTree tree = new QueueTree(TREE, CLUSTER);

    tree.addRequest("a", amounts(1, 2_000, 0));
    tree.addRequest("c", amounts(3, 0, 4 * GB));

    assertThat(tree.get("p").request(ResourceKind.GPU)).isEqualTo(1);
    assertThat(tree.get("root").request(ResourceKind.GPU)).isEqualTo(4);
    assertThat(tree.get("root").request(ResourceKind.CPU)).isEqualTo(2_000);
    assertThat(tree.get("root").request(ResourceKind.MEMORY)).isEqualTo(4e9);
    assertThat(tree.get("b").request(ResourceKind.GPU)).isZero();
  }

  @Test
  void pathToRootIsLeafFirst() {
    QueueTree tree = new QueueTree(TREE, CLUSTER);

    assertThat(tree.pathToRoot("b"))
        .extracting(QueueAttributes::name)
        .containsExactly("b", "p", "root");
    assertThat(tree.isLeaf("b")).isTrue();
    assertThat(tree.isLeaf("p")).isFalse();
    assertThat(tree.roots()).extracting(QueueAttributes::name).containsExactly("root");
  }

  @Test
  void fairSharesAreComputedPerResource() {
    QueueTree tree =
        new QueueTree(
            List.of(
                Queues.queue("a").gpu(2, 1, -1).build(), Queues.queue("b").gpu(2, 1, -1).build()),
            CLUSTER);
    tree.addRequest("a", amounts(6, 1_000, 0));
    tree.addRequest("b", amounts(1, 10_000, 0));

    tree.computeFairShares(new FairShareDivider(1.0));

    assertThat(fairShares(tree))
        .isEqualTo(
            Map.of(
                "a", List.of(6.0, 1_000.0, 0.0),
                "b", List.of(1.0, 10_000.0, 0.0)));
  }

  @Test
  void childrenDivideTheirParentsFairShare() {
    QueueTree tree =
        new QueueTree(
            List.of(
                Queues.queue("p").gpu(-1, 1, 4).build(),
                Queues.queue("a").parent("p").gpu(2, 1, -1).build(),
                Queues.queue("b").parent("p").gpu(2, 1, -1).build(),
                Queues.queue("c").gpu(-1, 1, -1).build()),
            CLUSTER);
    tree.addRequest("a", amounts(6, 0, 0));
    tree.addRequest("b", amounts(1, 0, 0));
    tree.addRequest("c", amounts(2, 0, 0));

    tree.computeFairShares(new FairShareDivider(1.0));

    assertThat(tree.get("p").fairShare(ResourceKind.GPU)).isEqualTo(4);
    assertThat(tree.get("a").fairShare(ResourceKind.GPU)).isEqualTo(3);
    assertThat(tree.get("b").fairShare(ResourceKind.GPU)).isEqualTo(1);
    assertThat(tree.get("c").fairShare(ResourceKind.GPU)).isEqualTo(2);
  }

  @Test
  void sessionAccountsRunningTasksAndStatementsUpTheTree() {
    ProportionPlugin proportion = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(8).build()),
                List.of(
                    Queues.queue("p").build(),
                    Queues.queue("a").parent("p").build(),
                    Queues.queue("b").parent("p").build()),
                List.of(
                    Jobs.job("ra")
                        .queue("a")
                        .task(Tasks.task("t0").gpus(2).cpu("4").running("n1"))
                        .build(),
                    Jobs.job("pb").queue("b").task(Tasks.task("t0").gpus(1).cpu("2")).build())),
            proportion);
    QueueTree tree = proportion.queues();
    assertThat(tree.get("p").allocated(ResourceKind.GPU)).isEqualTo(2);
    assertThat(tree.get("p").request(ResourceKind.GPU)).isEqualTo(3);
    assertThat(tree.get("b").fairShare(ResourceKind.GPU)).isEqualTo(1);

    try (Statement statement = session.statement()) {
      statement.allocate(session.task("ns/pb/t0"), session.node("n1"), List.of(), GpuAmount.ZERO);

      assertThat(tree.get("b").allocated(ResourceKind.GPU)).isEqualTo(1);
      assertThat(tree.get("p").allocated(ResourceKind.GPU)).isEqualTo(3);
      assertThat(tree.get("p").allocated(ResourceKind.CPU)).isEqualTo(6_000);
    }

    assertThat(tree.get("b").allocated(ResourceKind.GPU)).isZero();
    assertThat(tree.get("p").allocated(ResourceKind.GPU)).isEqualTo(2);
    assertThat(tree.get("p").allocated(ResourceKind.CPU)).isEqualTo(4_000);
  }

  private static Resources amounts(double gpus, long cpuMillis, long memoryBytes) {
    return Resources.of(cpuMillis, memoryBytes, GpuAmount.ofDevicesRoundedHalfUp(gpus));
  }

  private static Map<String, List<Double>> allocated(QueueTree tree) {
    Map<String, List<Double>> out = new TreeMap<>();
    for (QueueAttributes q : tree.all()) {
      out.put(q.name(), Arrays.stream(ResourceKind.values()).map(q::allocated).toList());
    }
    return out;
  }

  private static Map<String, List<Double>> fairShares(QueueTree tree) {
    Map<String, List<Double>> out = new TreeMap<>();
    for (QueueAttributes q : tree.all()) {
      out.put(q.name(), Arrays.stream(ResourceKind.values()).map(q::fairShare).toList());
    }
    return out;
  }
}
