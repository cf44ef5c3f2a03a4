package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node index's walks (fullest first, then by name, from the first node that could fit) and its
 * node classes, on a session whose running tasks give the nodes different free capacity.
 */
class NodeIndexTest {
  /**
   * g1: 8 GPUs, 6 taken (2 free); g2: 8 GPUs, 2 free; g3: 8 GPUs, all free; g4: 4 GPUs, a shared
   * GPU half used and 3 whole free; c1, c2: CPU-only, c1 with 6 of 16 cores taken. Job e waits with
   * one 1-GPU task.
   */
  private static Session session() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(
                Nodes.node("g1").gpus(8).cpu("64").build(),
                Nodes.node("g2").gpus(8).cpu("64").build(),
                Nodes.node("g3").gpus(8).cpu("64").build(),
                Nodes.node("g4").gpus(4).cpu("64").build(),
                Nodes.node("c1").cpu("16").build(),
                Nodes.node("c2").cpu("16").build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("a").task(Tasks.task("t0").gpus(6).cpu("8").running("g1")).build(),
                Jobs.job("b").task(Tasks.task("t0").gpus(6).cpu("8").running("g2")).build(),
                Jobs.job("c")
                    .task(
                        Tasks.task("t0").gpuFraction(0.5).running("g4").onGpuGroups(0.5, "g4-gpu0"))
                    .build(),
                Jobs.job("d").task(Tasks.task("t0").cpu("6").running("c1")).build(),
                Jobs.job("e").task(Tasks.task("t0").gpus(1)).build()));
    return Session.open(snapshot, new PluginRegistry().build(Map.of(), Placement.DEFAULTS));
  }

  @Test
  void gpuNodesWalkFromTheFirstWithEnoughFreeGpusFullestFirst() {
    Session session = session();

    assertThat(names(session.nodeIndex().withFreeGpusAtLeast(2)))
        .containsExactly("g1", "g2", "g4", "g3");
    assertThat(names(session.nodeIndex().withFreeGpusAtLeast(3))).containsExactly("g4", "g3");
    assertThat(names(session.nodeIndex().withFreeGpusAtLeast(9))).isEmpty();
  }

  @Test
  void sharedGpusByTheirRoomNodesFullestFirst() {
    Session session = session();

    assertThat(names(session.nodeIndex().withSharedRoomAtLeast(50))).containsExactly("g4");
    assertThat(names(session.nodeIndex().withSharedRoomAtLeast(51))).isEmpty();
  }

  @Test
  void cpuOnlyAndGpuNodesByFreeCpuApart() {
    Session session = session();

    assertThat(names(session.nodeIndex().withFreeCpuAtLeast(10_000, true)))
        .containsExactly("c1", "c2");
    assertThat(names(session.nodeIndex().withFreeCpuAtLeast(10_001, true))).containsExactly("c2");
    assertThat(names(session.nodeIndex().withFreeCpuAtLeast(60_000, false)))
        .containsExactly("g3", "g4");
  }

  @Test
  void theWalksFollowEveryPlacementAndItsUndo() {
    Session session = session();
    try (Statement statement = session.statement()) {
      statement.allocate(pendingTask(session), session.node("g2"), List.of(), GpuAmount.ZERO);

      assertThat(names(session.nodeIndex().withFreeGpusAtLeast(1)))
          .containsExactly("g2", "g1", "g4", "g3");
      assertThat(names(session.nodeIndex().withFreeGpusAtLeast(2)))
          .containsExactly("g1", "g4", "g3");
    }
    assertThat(names(session.nodeIndex().withFreeGpusAtLeast(2)))
        .containsExactly("g1", "g2", "g4", "g3");
  }

  @Test
  void aWalkAskedForBeforeAPlacementReadsTheNodesAsTheyAreWhenWalked() {
    Session session = session();
    Iterable<NodeState> enough = session.nodeIndex().withFreeGpusAtLeast(2);
    Iterable<NodeState> one = session.nodeIndex().withFreeGpusAtLeast(1);

    try (Statement statement = session.statement()) {
      statement.allocate(pendingTask(session), session.node("g2"), List.of(), GpuAmount.ZERO);

      assertThat(names(enough)).containsExactly("g1", "g4", "g3");
      assertThat(names(one)).containsExactly("g2", "g1", "g4", "g3");
    }
    assertThat(names(enough)).containsExactly("g1", "g2", "g4", "g3");
  }

  @Test
  void identicalNodesShareAClassUntilOneChanges() {
    Session session = session();

    List<NodeIndex.ClassMembers> classes = session.nodeIndex().nodeClasses();

    // g1 and g2 hold the same; c2 has more CPU free than c1; g3 and g4 differ in GPUs
    assertThat(classes)
        .extracting(c -> c.first().name() + "×" + c.size())
        .containsExactly("c1×1", "c2×1", "g1×2", "g3×1", "g4×1");

    try (Statement statement = session.statement()) {
      statement.allocate(pendingTask(session), session.node("g2"), List.of(), GpuAmount.ZERO);

      assertThat(session.nodeIndex().nodeClasses())
          .extracting(c -> c.first().name() + "×" + c.size())
          .containsExactly("c1×1", "c2×1", "g1×1", "g2×1", "g3×1", "g4×1");
    }
    assertThat(session.nodeIndex().nodeClasses())
        .extracting(c -> c.first().name() + "×" + c.size())
        .containsExactly("c1×1", "c2×1", "g1×2", "g3×1", "g4×1");
  }

  /**
   * d1, d2, d3: 8 GPUs in domains 0-3 and 4-7; d1 has GPUs 0, 1, 4 and 5 taken (2 free in each
   * domain), d2 GPU 1 (4 free in the second domain), d3 none; g1: 8 GPUs without domains. Job p
   * waits with one 4-GPU task.
   */
  private static Session domainSession() {
    List<List<Integer>> twoDomains = List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7));
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(
                Nodes.node("d1").gpus(8).gpuTopology(twoDomains).build(),
                Nodes.node("d2").gpus(8).gpuTopology(twoDomains).build(),
                Nodes.node("d3").gpus(8).gpuTopology(twoDomains).build(),
                Nodes.node("g1").gpus(8).build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("a")
                    .task(Tasks.task("t0").gpus(4).running("d1").gpuDevices(0, 1, 4, 5))
                    .build(),
                Jobs.job("b").task(Tasks.task("t0").gpus(1).running("d2").gpuDevices(1)).build(),
                Jobs.job("p").task(Tasks.task("t0").gpus(4)).build()));
    return Session.open(snapshot, new PluginRegistry().build(Map.of(), Placement.DEFAULTS));
  }

  @Test
  void nodesByFreeGpusInOneDomainFollowEveryPlacementAndItsUndo() {
    Session session = domainSession();
    NodeIndex index = session.nodeIndex();

    assertThat(names(index.withFreeGpusInOneDomainAtLeast(4))).containsExactly("d2", "d3");
    assertThat(names(index.withFreeGpusInOneDomainAtLeast(2))).containsExactly("d1", "d2", "d3");
    assertThat(names(index.withFreeGpusInOneDomainAtLeast(5))).isEmpty();

    try (Statement statement = session.statement()) {
      // the task takes d2's GPUs 4-7, leaving 3 free in the first domain
      statement.allocate(session.task("ns/p/t0"), session.node("d2"), List.of(), GpuAmount.ZERO);

      assertThat(names(index.withFreeGpusInOneDomainAtLeast(4))).containsExactly("d3");
      assertThat(names(index.withFreeGpusInOneDomainAtLeast(2))).containsExactly("d2", "d1", "d3");
    }
    assertThat(names(index.withFreeGpusInOneDomainAtLeast(4))).containsExactly("d2", "d3");
  }

  private static TaskState pendingTask(Session session) {
    return session.task("ns/e/t0");
  }

  private static List<String> names(Iterable<NodeState> nodes) {
    List<String> out = new ArrayList<>();
    nodes.forEach(n -> out.add(n.name()));
    return ImmutableList.copyOf(out);
  }
}
