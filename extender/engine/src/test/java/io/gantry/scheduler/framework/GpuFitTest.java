package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceSource;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.plugins.GpuPackPlugin;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §7 device choice for shared-GPU tasks, with gpupack ordering: existing groups the
 * task fits on and whole idle or releasing devices are candidates; the first {@code numDevices} are
 * taken; a new group needs two free pod slots; memory requests need a synced memory label.
 */
class GpuFitTest {
  record Case(
      String name,
      NodeInfo node,
      List<Tasks.Builder> placed,
      Tasks.Builder task,
      Optional<GpuFit.Selection> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    NodeInfo twoGpus = Nodes.node("n1").gpus(2).build();
    return Stream.of(
        new Case(
            "a fraction on an idle node opens a whole device",
            twoGpus,
            List.of(),
            Tasks.task("t").gpuFraction(0.5),
            selection(0.5, true, "n1-gpu0")),
        new Case(
            "a fraction joins the fullest shared GPU it fits on",
            Nodes.node("n1").gpus(3).build(),
            List.of(shared("a", 0.5, "g-a"), shared("b", 0.25, "g-b")),
            Tasks.task("t").gpuFraction(0.25),
            selection(0.25, true, "g-a")),
        new Case(
            "a fraction that fits no shared GPU opens another device",
            twoGpus,
            List.of(shared("a", 0.5, "g-a")),
            Tasks.task("t").gpuFraction(0.6),
            selection(0.6, true, "n1-gpu0")),
        new Case(
            "numDevices 2 opens two devices",
            Nodes.node("n1").gpus(4).build(),
            List.of(),
            Tasks.task("t").gpuFraction(0.5).numDevices(2),
            selection(0.5, true, "n1-gpu0", "n1-gpu1")),
        new Case(
            "numDevices 2 on a one-GPU node does not fit",
            Nodes.node("n1").gpus(1).build(),
            List.of(),
            Tasks.task("t").gpuFraction(0.5).numDevices(2),
            Optional.empty()),
        new Case(
            "a new group needs 2 free pod slots",
            Nodes.node("n1").gpus(2).maxPods(2).build(),
            List.of(Tasks.task("w").running("n1")),
            Tasks.task("t").gpuFraction(0.5),
            Optional.empty()),
        new Case(
            "a new group with 2 free pod slots",
            Nodes.node("n1").gpus(2).maxPods(3).build(),
            List.of(Tasks.task("w").running("n1")),
            Tasks.task("t").gpuFraction(0.5),
            selection(0.5, true, "n1-gpu0")),
        new Case(
            "joining an existing group needs only 1 free pod slot",
            Nodes.node("n1").gpus(2).maxPods(2).build(),
            List.of(shared("a", 0.5, "g-a")),
            Tasks.task("t").gpuFraction(0.5),
            selection(0.5, true, "g-a")),
        new Case(
            "a memory request is converted with the node's GPU memory",
            Nodes.node("n1").gpus(1).gpuMemoryMib(81_920).build(),
            List.of(),
            Tasks.task("t").gpuMemoryMib(40_960),
            selection(0.51, true, "n1-gpu0")),
        new Case(
            "an unsynced GPU memory label rejects memory requests",
            Nodes.node("n1").gpus(1).gpuMemoryUnsynced().build(),
            List.of(),
            Tasks.task("t").gpuMemoryMib(1_024),
            Optional.empty()),
        new Case(
            "an unsynced GPU memory label does not affect fraction requests",
            Nodes.node("n1").gpus(1).gpuMemoryUnsynced().build(),
            List.of(),
            Tasks.task("t").gpuFraction(0.5),
            selection(0.5, true, "n1-gpu0")),
        new Case(
            "only a releasing device: pipelined",
            Nodes.node("n1").gpus(1).build(),
            List.of(Tasks.task("x").gpus(1).releasing("n1")),
            Tasks.task("t").gpuFraction(0.5),
            selection(0.5, false, "n1-gpu0")),
        new Case(
            "a shared GPU with a releasing co-tenant: joined, pipelined",
            Nodes.node("n1").gpus(1).build(),
            List.of(shared("a", 0.5, "g"), sharedReleasing("x", 0.5, "g")),
            Tasks.task("t").gpuFraction(0.5),
            selection(0.5, false, "g")),
        new Case(
            "a shared GPU whose fractions are all releasing is not joined",
            Nodes.node("n1").gpus(1).build(),
            List.of(sharedReleasing("x", 0.25, "g")),
            Tasks.task("t").gpuFraction(0.25),
            selection(0.25, false, "n1-gpu0")),
        new Case(
            "a full node",
            Nodes.node("n1").gpus(1).build(),
            List.of(Tasks.task("w").gpus(1).running("n1")),
            Tasks.task("t").gpuFraction(0.1),
            Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void selectsDevices(Case c) {
    Session session = session(c.node(), c.placed(), c.task());

    assertThat(GpuFit.select(session.task("ns/p/t"), session.node("n1"), session.hooks()))
        .isEqualTo(c.expected());
    assertThat(GpuFit.fits(session.task("ns/p/t"), session.node("n1"), session.hooks()))
        .isEqualTo(c.expected().isPresent());
  }

  @Test
  void aFractionTakesAWholeDeviceFromIdleAndTheNextJoinsIt() {
    Session session =
        session(Nodes.node("n1").gpus(2).build(), List.of(), Tasks.task("t").gpuFraction(0.5));
    TaskState first = session.task("ns/p/t");
    TaskState second = session.task("ns/p/u");
    NodeState node = session.node("n1");

    try (Statement st = session.statement()) {
      GpuFit.Selection s1 = GpuFit.select(first, node, session.hooks()).orElseThrow();
      st.allocate(first, node, s1.gpuGroups(), s1.portion());

      assertThat(node.idle().gpus()).isEqualTo(GpuAmount.ofDevices(1));
      assertThat(node.gpuGroups())
          .containsExactly(
              new GpuGroupView(
                  "n1-gpu0",
                  GpuAmount.ofHundredths(50),
                  GpuAmount.ZERO,
                  ComputeMode.TIME_SLICING,
                  DeviceSource.IDLE));

      GpuFit.Selection s2 = GpuFit.select(second, node, session.hooks()).orElseThrow();
      st.allocate(second, node, s2.gpuGroups(), s2.portion());

      assertThat(s2.gpuGroups()).containsExactly("n1-gpu0");
      assertThat(node.idle().gpus()).isEqualTo(GpuAmount.ofDevices(1));
      assertThat(node.gpuGroups())
          .containsExactly(
              new GpuGroupView(
                  "n1-gpu0",
                  GpuAmount.ofHundredths(75),
                  GpuAmount.ZERO,
                  ComputeMode.TIME_SLICING,
                  DeviceSource.IDLE));
    }
    assertThat(node.idle().gpus()).isEqualTo(GpuAmount.ofDevices(2));
    assertThat(node.gpuGroups()).isEmpty();
  }

  @Test
  void quotaGpusOnANodeArePortionTimesDevices() {
    Session session =
        session(
            Nodes.node("n1").gpus(4).gpuMemoryMib(81_920).build(),
            List.of(),
            Tasks.task("t").gpuMemoryMib(40_960).numDevices(2));

    assertThat(GpuFit.quotaGpusOn(session.task("ns/p/t"), session.node("n1")))
        .isEqualTo(GpuAmount.ofHundredths(102));
    assertThat(GpuFit.quotaGpusOn(session.task("ns/p/u"), session.node("n1")))
        .isEqualTo(GpuAmount.ofHundredths(25));
  }

  @Test
  void aMemoryRequestLargerThanTheDevicesFitsNoDeviceOfTheNode() {
    Session session =
        session(
            Nodes.node("n1").gpus(2).gpuMemoryMib(40_960).build(),
            List.of(),
            Tasks.task("t").gpuMemoryMib(60_000));
    TaskState task = session.task("ns/p/t");
    NodeState node = session.node("n1");

    assertThat(
            List.of(
                GpuFit.fitsDevice(task, node),
                GpuFit.fitsIdleNow(task, node),
                GpuFit.fits(task, node, session.hooks()),
                GpuFit.select(task, node, session.hooks()).isPresent()))
        .containsOnly(false);
    assertThat(GpuFit.portionOn(task, node)).isEqualTo(GpuAmount.ofHundredths(147));
    assertThat(GpuFit.quotaGpusOn(task, node)).isEqualTo(GpuAmount.ofDevices(1));
  }

  @Test
  void fitsIdleNowCountsIdlePortionsAndIdleDevices() {
    Session session =
        session(
            Nodes.node("n1").gpus(2).build(),
            List.of(shared("a", 0.5, "g"), sharedReleasing("x", 0.25, "g")),
            Tasks.task("t").gpuFraction(0.25).numDevices(2));

    assertThat(GpuFit.fitsIdleNow(session.task("ns/p/t"), session.node("n1"))).isTrue();
    assertThat(GpuFit.fitsIdleNow(session.task("ns/p/u"), session.node("n1"))).isTrue();
  }

  @Test
  void aSharedDeviceWithARunningFractionIsNotReleasingWhenTheRunningFractionComesFirst() {
    Session session =
        session(
            Nodes.node("n1").gpus(1).build(),
            List.of(shared("a", 0.5, "g"), sharedReleasing("x", 0.5, "g")),
            Tasks.task("t").gpus(1));

    assertThat(session.node("n1").releasing().gpus()).isEqualTo(GpuAmount.ZERO);
    assertThat(GpuFit.fits(session.task("ns/p/t"), session.node("n1"), session.hooks())).isFalse();
  }

  @Test
  void aSharedDeviceWithARunningFractionIsNotReleasingWhenTheReleasingFractionComesFirst() {
    Session session =
        session(
            Nodes.node("n1").gpus(1).build(),
            List.of(sharedReleasing("x", 0.5, "g"), shared("a", 0.5, "g")),
            Tasks.task("t").gpus(1));

    assertThat(session.node("n1").releasing().gpus()).isEqualTo(GpuAmount.ZERO);
    assertThat(GpuFit.fits(session.task("ns/p/t"), session.node("n1"), session.hooks())).isFalse();
  }

  /** A selection with a per-device portion in devices ({@code 0.5}). */
  private static Optional<GpuFit.Selection> selection(
      double portion, boolean idleNow, String... groups) {
    return Optional.of(
        new GpuFit.Selection(
            ImmutableList.copyOf(groups), GpuAmount.ofDevicesRoundedHalfUp(portion), idleNow));
  }

  private static Tasks.Builder shared(String name, double portion, String group) {
    return Tasks.task(name).gpuFraction(portion).running("n1").onGpuGroups(portion, group);
  }

  private static Tasks.Builder sharedReleasing(String name, double portion, String group) {
    return Tasks.task(name).gpuFraction(portion).releasing("n1").onGpuGroups(portion, group);
  }

  /** The task under test is {@code ns/p/t}; {@code ns/p/u} is a second pending quarter GPU. */
  private static Session session(NodeInfo node, List<Tasks.Builder> placed, Tasks.Builder task) {
    return Sessions.open(
        Snapshots.of(
            List.of(node),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("busy").minMember(0).task(placed.toArray(Tasks.Builder[]::new)).build(),
                Jobs.job("p").minMember(0).task(task, Tasks.task("u").gpuFraction(0.25)).build())),
        new GpuPackPlugin());
  }
}
