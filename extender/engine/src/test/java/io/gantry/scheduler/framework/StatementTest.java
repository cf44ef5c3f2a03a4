package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceSource;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.ProportionArgs;
import io.gantry.scheduler.plugins.ProportionPlugin;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Sessions.NodeView;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * kai-reference §4.12: allocate, pipeline and evict change the session at once; checkpoint and
 * rollback undo exactly; commit returns the decisions in operation order; close without commit
 * discards; a gang that must wait has its allocations converted to pipelined.
 */
class StatementTest {
  private static final EvictionCause CAUSE =
      new EvictionCause("reclaim", Optional.of("ns/urgent"), 1);

  private static final long GI = 1L << 30;
  private static final GpuAmount HALF = GpuAmount.ofHundredths(50);

  /** Where a task is and what it holds, as one comparable value. */
  record TaskView(
      TaskStatus status, Optional<String> node, List<String> groups, GpuAmount portion) {
    static TaskView of(TaskState t) {
      return new TaskView(t.status(), t.nodeName(), t.gpuGroups(), t.gpuPortion());
    }
  }

  /** Everything a statement may change, as one comparable value. */
  record World(Map<String, NodeView> nodes, Map<String, TaskView> tasks, List<Decision> decisions) {
    static World of(Session s) {
      Map<String, NodeView> nodes = new TreeMap<>();
      s.nodes().forEach(n -> nodes.put(n.name(), NodeView.of(n)));
      Map<String, TaskView> tasks = new TreeMap<>();
      s.jobs().forEach(j -> j.tasks().forEach(t -> tasks.put(t.id(), TaskView.of(t))));
      return new World(nodes, tasks, s.decisions());
    }
  }

  @Test
  void allocateTakesTheRequestFromIdle() {
    Session s = session(Nodes.node("n1").gpus(4).cpu("16").memory("64Gi").build());

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);

      assertThat(NodeView.of(s.node("n1")))
          .isEqualTo(
              new NodeView(
                  Resources.of(15_000, 63 * GI, GpuAmount.ofDevices(3)),
                  Resources.ZERO,
                  1,
                  List.of()));
      assertThat(TaskView.of(s.task("ns/p/t0")))
          .isEqualTo(
              new TaskView(TaskStatus.ALLOCATED, Optional.of("n1"), List.of(), GpuAmount.ZERO));
    }
  }

  @Test
  void pipelineTakesTheRequestFromReleasing() {
    Session s =
        session(
            Nodes.node("n1").gpus(2).cpu("16").memory("64Gi").build(),
            Tasks.task("r").gpus(2).cpu("2").memory("2Gi").releasing("n1"));
    assertThat(NodeView.of(s.node("n1")))
        .isEqualTo(
            new NodeView(
                Resources.of(14_000, 62 * GI, GpuAmount.ofDevices(0)),
                Resources.of(2_000, 2 * GI, GpuAmount.ofDevices(2)),
                1,
                List.of()));

    try (Statement st = s.statement()) {
      st.pipeline(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);

      assertThat(NodeView.of(s.node("n1")))
          .isEqualTo(
              new NodeView(
                  Resources.of(14_000, 62 * GI, GpuAmount.ofDevices(0)),
                  Resources.of(1_000, GI, GpuAmount.ofDevices(1)),
                  2,
                  List.of()));
      assertThat(s.task("ns/p/t0").status()).isEqualTo(TaskStatus.PIPELINED);
    }
  }

  @Test
  void evictTurnsARunningTaskIntoReleasingCapacity() {
    Session s =
        session(
            Nodes.node("n1").gpus(4).cpu("16").memory("64Gi").build(),
            Tasks.task("r").gpus(2).cpu("2").memory("2Gi").running("n1"));

    try (Statement st = s.statement()) {
      st.evict(s.task("ns/busy/r"), "Pod ns/busy-r was preempted", CAUSE);

      assertThat(NodeView.of(s.node("n1")))
          .isEqualTo(
              new NodeView(
                  Resources.of(14_000, 62 * GI, GpuAmount.ofDevices(2)),
                  Resources.of(2_000, 2 * GI, GpuAmount.ofDevices(2)),
                  1,
                  List.of()));
      assertThat(TaskView.of(s.task("ns/busy/r")))
          .isEqualTo(
              new TaskView(TaskStatus.RELEASING, Optional.of("n1"), List.of(), GpuAmount.ZERO));
    }
  }

  @Test
  void rollbackToACheckpointRestoresExactly() {
    Session s =
        session(
            Nodes.node("n1").gpus(4).cpu("16").memory("64Gi").build(),
            Tasks.task("r").gpus(1).cpu("2").running("n1"),
            Tasks.task("x").gpus(1).releasing("n1"),
            Tasks.task("f").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g-f"));

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);
      World before = World.of(s);
      Statement.Checkpoint checkpoint = st.checkpoint();

      st.allocate(s.task("ns/p/t1"), s.node("n1"), List.of("g-f"), HALF);
      st.pipeline(s.task("ns/p/t2"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.evict(s.task("ns/busy/r"), "evicted", CAUSE);
      assertThat(World.of(s)).isNotEqualTo(before);

      st.rollback(checkpoint);

      assertThat(World.of(s)).isEqualTo(before);
      assertThat(st.commit())
          .containsExactly(new BindDecision("ns/p/t0", "n1", ImmutableList.of(), GpuAmount.ZERO));
    }
  }

  @Test
  void closeWithoutCommitDiscardsEverything() {
    Session s =
        session(
            Nodes.node("n1").gpus(4).build(),
            Tasks.task("r").gpus(1).running("n1"),
            Tasks.task("x").gpus(1).releasing("n1"));
    World before = World.of(s);

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.allocate(s.task("ns/p/t1"), s.node("n1"), List.of("n1-gpu0"), HALF);
      st.pipeline(s.task("ns/p/t2"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.evict(s.task("ns/busy/r"), "evicted", CAUSE);
    }

    assertThat(World.of(s)).isEqualTo(before);
    assertThat(s.decisions()).isEmpty();
  }

  @Test
  void commitReturnsTheDecisionsInOperationOrderAndKeepsThem() {
    Session s =
        session(
            Nodes.node("n1").gpus(4).build(),
            Tasks.task("r").gpus(1).running("n1"),
            Tasks.task("x").gpus(1).releasing("n1"));
    List<Decision> committed;

    try (Statement st = s.statement()) {
      st.evict(s.task("ns/busy/r"), "Pod ns/busy-r was preempted", CAUSE);
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.allocate(s.task("ns/p/t1"), s.node("n1"), List.of("n1-gpu0"), HALF);
      st.pipeline(s.task("ns/p/t2"), s.node("n1"), List.of(), GpuAmount.ZERO);
      committed = st.commit();
    }

    List<Decision> expected =
        List.of(
            new EvictDecision("ns/busy/r", "n1", "Pod ns/busy-r was preempted", CAUSE),
            new BindDecision("ns/p/t0", "n1", ImmutableList.of(), GpuAmount.ZERO),
            new BindDecision("ns/p/t1", "n1", ImmutableList.of("n1-gpu0"), HALF),
            new PipelineDecision("ns/p/t2", "n1", ImmutableList.of(), GpuAmount.ZERO));
    assertThat(committed).isEqualTo(expected);
    assertThat(committed)
        .extracting(Decision::kind)
        .containsExactly(
            Decision.Kind.EVICT, Decision.Kind.BIND, Decision.Kind.BIND, Decision.Kind.PIPELINE);
    assertThat(s.decisions()).isEqualTo(expected);
    assertThat(s.task("ns/p/t0").status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(s.task("ns/busy/r").status()).isEqualTo(TaskStatus.RELEASING);
  }

  @Test
  void convertAllocationsToPipelinedKeepsPlacementsAndCommitsPipelineDecisions() {
    Session s =
        session(
            Nodes.node("n1").gpus(2).cpu("16").build(),
            Tasks.task("x").gpus(1).cpu("1").releasing("n1"));

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.pipeline(s.task("ns/p/t2"), s.node("n1"), List.of(), GpuAmount.ZERO);
      NodeView placed = NodeView.of(s.node("n1"));

      st.convertAllocationsToPipelined();

      assertThat(NodeView.of(s.node("n1"))).isEqualTo(placed);
      assertThat(s.task("ns/p/t0").status()).isEqualTo(TaskStatus.PIPELINED);
      assertThat(s.task("ns/p/t2").status()).isEqualTo(TaskStatus.PIPELINED);
      assertThat(st.commit())
          .containsExactly(
              new PipelineDecision("ns/p/t0", "n1", ImmutableList.of(), GpuAmount.ZERO),
              new PipelineDecision("ns/p/t2", "n1", ImmutableList.of(), GpuAmount.ZERO));
    }
  }

  @Test
  void convertedAllocationsStillRollBackToPending() {
    Session s = session(Nodes.node("n1").gpus(2).build(), Tasks.task("x").gpus(1).releasing("n1"));
    World before = World.of(s);

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.pipeline(s.task("ns/p/t2"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.convertAllocationsToPipelined();
    }

    assertThat(World.of(s)).isEqualTo(before);
  }

  @Test
  void queueAllocationFollowsTheStatementAndItsRollback() {
    ProportionPlugin proportion = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Session s =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(4).build()),
                List.of(Queues.queue("q").build()),
                List.of(Jobs.job("p").tasks(2, t -> t.gpus(1)).build())),
            proportion);

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t0"), s.node("n1"), List.of(), GpuAmount.ZERO);
      Statement.Checkpoint checkpoint = st.checkpoint();
      st.pipeline(s.task("ns/p/t1"), s.node("n1"), List.of(), GpuAmount.ZERO);
      assertThat(proportion.queues().get("q").allocated(ResourceKind.GPU)).isEqualTo(2);

      st.rollback(checkpoint);

      assertThat(proportion.queues().get("q").allocated(ResourceKind.GPU)).isEqualTo(1);
    }
    assertThat(proportion.queues().get("q").allocated(ResourceKind.GPU)).isZero();
  }

  @Test
  void evictingTheTaskThatOpenedASharedGpuKeepsTheDeviceWhileACoTenantStays() {
    Session s =
        session(
            Nodes.node("n1").gpus(1).build(),
            Tasks.task("a").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g"),
            Tasks.task("b").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g"));
    World before = World.of(s);

    try (Statement st = s.statement()) {
      st.evict(s.task("ns/busy/a"), "evicted", CAUSE);

      assertThat(s.node("n1").idle().gpus())
          .as("idle GPUs while b still uses the device")
          .isEqualTo(GpuAmount.ZERO);
      assertThat(s.node("n1").gpuGroups())
          .containsExactly(
              new GpuGroupView("g", HALF, HALF, ComputeMode.TIME_SLICING, DeviceSource.IDLE));

      st.rollback(new Statement.Checkpoint(0));

      assertThat(World.of(s)).isEqualTo(before);
    }
  }

  @Test
  void convertingTwoFractionsOnANewSharedGpuKeepsTheDeviceTaken() {
    Session s = session(Nodes.node("n1").gpus(1).build());

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/p/t1"), s.node("n1"), List.of("n1-gpu0"), HALF);
      st.allocate(s.task("ns/p/t3"), s.node("n1"), List.of("n1-gpu0"), HALF);
      NodeView placed = NodeView.of(s.node("n1"));

      st.convertAllocationsToPipelined();

      // the same device and portions, now held by pipelined tasks
      assertThat(NodeView.of(s.node("n1")))
          .isEqualTo(
              new NodeView(
                  placed.idle(),
                  placed.releasing(),
                  placed.podCount(),
                  List.of(
                      new GpuGroupView(
                          "n1-gpu0",
                          GpuAmount.ofDevices(1),
                          GpuAmount.ZERO,
                          ComputeMode.TIME_SLICING,
                          DeviceSource.IDLE,
                          GpuAmount.ofDevices(1)))));
      assertThat(s.node("n1").idle().gpus()).isEqualTo(GpuAmount.ZERO);
    }
  }

  /**
   * A node with the given placed tasks (job {@code busy}) and a pending job {@code p}: {@code t0}
   * and {@code t2} ask for a whole GPU, {@code t1} and {@code t3} for half a GPU; each for 1 CPU
   * and 1Gi.
   */
  private static Session session(NodeInfo node, Tasks.Builder... placed) {
    return Sessions.open(
        Snapshots.of(
            List.of(node),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("busy").minMember(0).task(placed).build(),
                Jobs.job("p")
                    .minMember(0)
                    .task(
                        Tasks.task("t0").gpus(1).cpu("1").memory("1Gi"),
                        Tasks.task("t1").gpuFraction(0.5).cpu("1").memory("1Gi"),
                        Tasks.task("t2").gpus(1).cpu("1").memory("1Gi"),
                        Tasks.task("t3").gpuFraction(0.5).cpu("1").memory("1Gi"))
                    .build())));
  }

  @Test
  void aVictimPipelinedBackOntoItsOwnNodeIsUnevictedAndDecidesNothing() {
    Session s = session(Nodes.node("n1").gpus(4).build(), Tasks.task("r").gpus(2).running("n1"));
    NodeView before = NodeView.of(s.node("n1"));
    TaskState victim = s.task("ns/busy/r");

    try (Statement st = s.statement()) {
      st.evict(victim, "evicted", CAUSE);
      st.pipeline(victim, s.node("n1"), List.of(), GpuAmount.ZERO);

      assertThat(victim.status()).isEqualTo(TaskStatus.RUNNING);
      assertThat(st.evicted(victim)).isFalse();
      assertThat(NodeView.of(s.node("n1"))).isEqualTo(before);
      assertThat(st.commit()).isEmpty();
    }
  }

  @Test
  void aSharedVictimPipelinedOntoAnotherGpuOfItsOwnNodeStaysEvicted() {
    // KAI: the GPU placement changed, so the pod moves (ConsolidateSharedPodInfoToDifferentGPU)
    Session s =
        session(
            Nodes.node("n1").gpus(2).build(),
            Tasks.task("a").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g0"),
            Tasks.task("b").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g1"));
    TaskState victim = s.task("ns/busy/b");

    try (Statement st = s.statement()) {
      st.evict(victim, "evicted", CAUSE);
      st.pipeline(victim, s.node("n1"), List.of("g0"), HALF);

      assertThat(victim.status()).isEqualTo(TaskStatus.PIPELINED);
      assertThat(victim.gpuGroups()).containsExactly("g0");
      assertThat(st.evicted(victim)).isTrue();
      assertThat(s.node("n1").gpuGroups())
          .extracting(GpuGroupView::id, GpuGroupView::releasingPortion)
          .containsExactly(tuple("g0", GpuAmount.ZERO), tuple("g1", HALF));
      assertThat(st.commit())
          .containsExactly(
              new EvictDecision("ns/busy/b", "n1", "evicted", CAUSE),
              new PipelineDecision("ns/busy/b", "n1", ImmutableList.of("g0"), HALF));
    }
  }

  @Test
  void aVictimPipelinedElsewhereKeepsReleasingItsOldPlaceUntilTheSessionCloses() {
    Session s = busyNodeAndEmptyNode();
    TaskState victim = s.task("ns/busy/r");

    try (Statement st = s.statement()) {
      st.evict(victim, "evicted", CAUSE);
      st.pipeline(victim, s.node("n2"), List.of(), GpuAmount.ZERO);

      assertThat(victim.status()).isEqualTo(TaskStatus.PIPELINED);
      assertThat(victim.nodeName()).contains("n2");
      assertThat(victim.evictedFromNode()).contains("n1");
      assertThat(s.node("n1").releasing().gpus()).isEqualTo(GpuAmount.ofDevices(2));
      assertThat(s.node("n2").idle().gpus()).isEqualTo(GpuAmount.ofDevices(2));
      assertThat(st.commit())
          .containsExactly(
              new EvictDecision("ns/busy/r", "n1", "evicted", CAUSE),
              new PipelineDecision("ns/busy/r", "n2", ImmutableList.of(), GpuAmount.ZERO));
    }
    s.close();
    assertThat(victim.status()).isEqualTo(TaskStatus.RELEASING);
    assertThat(s.node("n1").releasing().gpus()).isEqualTo(GpuAmount.ofDevices(2));
    assertThat(s.node("n2").idle().gpus()).isEqualTo(GpuAmount.ofDevices(4));
  }

  @Test
  void rollingBackAPipelinedVictimRestoresEveryNode() {
    Session s = busyNodeAndEmptyNode();
    NodeView n1 = NodeView.of(s.node("n1"));
    NodeView n2 = NodeView.of(s.node("n2"));
    TaskState victim = s.task("ns/busy/r");

    try (Statement st = s.statement()) {
      st.evict(victim, "evicted", CAUSE);
      st.pipeline(victim, s.node("n2"), List.of(), GpuAmount.ZERO);
    }

    assertThat(victim.status()).isEqualTo(TaskStatus.RUNNING);
    assertThat(NodeView.of(s.node("n1"))).isEqualTo(n1);
    assertThat(NodeView.of(s.node("n2"))).isEqualTo(n2);
  }

  @Test
  void rollingBackAnUnevictRestoresTheEvictionItTookBack() {
    Session s = busyNodeAndEmptyNode();
    TaskState victim = s.task("ns/busy/r");

    try (Statement st = s.statement()) {
      st.evict(victim, "evicted", CAUSE);
      Statement.Checkpoint evicted = st.checkpoint();
      st.pipeline(victim, s.node("n1"), List.of(), GpuAmount.ZERO);
      assertThat(st.evicted(victim)).isFalse();

      st.rollback(evicted);

      assertThat(st.evicted(victim)).isTrue();
      assertThat(victim.status()).isEqualTo(TaskStatus.RELEASING);
      // pipelined elsewhere, it still moves from the eviction the rollback restored
      st.pipeline(victim, s.node("n2"), List.of(), GpuAmount.ZERO);
      assertThat(victim.evictedFromNode()).contains("n1");
      assertThat(st.commit())
          .containsExactly(
              new EvictDecision("ns/busy/r", "n1", "evicted", CAUSE),
              new PipelineDecision("ns/busy/r", "n2", ImmutableList.of(), GpuAmount.ZERO));
    }
  }

  @Test
  void aLazyEvictionMessageIsFormattedOnlyWhenCommitted() {
    Session s = busyNodeAndEmptyNode();
    TaskState victim = s.task("ns/busy/r");
    List<String> formatted = new ArrayList<>();
    Supplier<String> message =
        () -> {
          formatted.add("formatted");
          return "evicted";
        };

    try (Statement st = s.statement()) {
      st.evict(victim, message, CAUSE);
    }
    assertThat(formatted).isEmpty();

    try (Statement st = s.statement()) {
      st.evict(victim, message, CAUSE);
      assertThat(st.commit())
          .containsExactly(new EvictDecision("ns/busy/r", "n1", "evicted", CAUSE));
    }
    assertThat(formatted).hasSize(1);
  }

  private static Session busyNodeAndEmptyNode() {
    return Sessions.open(
        Snapshots.of(
            List.of(Nodes.node("n1").gpus(4).build(), Nodes.node("n2").gpus(4).build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("busy").queue("q").task(Tasks.task("r").gpus(2).running("n1")).build())));
  }
}
