package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A node's fragmentation is read once per state: kept while the node holds still, read again once a
 * task lands on it; and the fragmentation with a task placed, counted from the state without
 * placing it, is that of the state the placement leaves.
 */
class NodeFragmentationsTest {
  private static final DemandShape THIRD =
      new DemandShape(
          Optional.of(GpuSharingRequest.ofFraction(0.3, 1)),
          0,
          1000,
          0,
          PodPlacementRequirements.none());
  private static final DemandShape HALF =
      new DemandShape(
          Optional.of(GpuSharingRequest.ofFraction(0.5, 1)),
          0,
          1000,
          0,
          PodPlacementRequirements.none());
  private static final DemandShape ONE_GPU =
      new DemandShape(Optional.empty(), 1, 1000, 0, PodPlacementRequirements.none());
  private static final DemandShape TWO_GPUS =
      new DemandShape(Optional.empty(), 2, 1000, 0, PodPlacementRequirements.none());
  private static final DemandShape ONE_GPU_MANY_CPUS =
      new DemandShape(Optional.empty(), 1, 60_000, 0, PodPlacementRequirements.none());

  private static final ImmutableList<DemandShape> SHAPES =
      ImmutableList.of(THIRD, HALF, ONE_GPU, TWO_GPUS, ONE_GPU_MANY_CPUS);

  /** Distinct weights, so every shape's count shows in the sum. */
  private static final ShapeMix.Weights WEIGHTS =
      new ShapeMix.Weights(SHAPES, new double[] {0.7, 1.3, 0.11, 2.9, 0.05});

  /**
   * Node {@code a}: 4 GPUs, one shared at 0.4 (0.6 free) and one at 0.7 (0.3 free), 2 whole free,
   * 64 CPUs of which 4 are taken; two pending tasks, one whole GPU and two.
   */
  private static Session session() {
    return Sessions.open(
        Snapshots.of(
            List.of(Nodes.node("a").gpus(4).cpu("64").build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("running")
                    .minMember(0)
                    .task(
                        Tasks.task("s1")
                            .gpuFraction(0.4)
                            .cpu("2")
                            .running("a")
                            .onGpuGroups(0.4, "g1")
                            .build(),
                        Tasks.task("s2")
                            .gpuFraction(0.7)
                            .cpu("2")
                            .running("a")
                            .onGpuGroups(0.7, "g2")
                            .build())
                    .build(),
                Jobs.job("one").task(Tasks.task("t").gpus(1).cpu("1")).build(),
                Jobs.job("two").task(Tasks.task("t").gpus(2).cpu("1")).build())));
  }

  @Test
  void keepsANodesStateUntilATaskLandsOnIt() {
    Session session = session();
    NodeState a = session.node("a");
    NodeFragmentations states = new NodeFragmentations(new NodeFragmentation.Shapes(SHAPES));
    NodeFragmentation before = states.of(a);
    assertThat(states.of(a)).isSameAs(before);
    // 2 whole GPUs free: the two-GPU shape can land, and loses only the shared rooms
    assertThat(before.fragmentation(twoGpusOnly())).isEqualTo(90.0);

    Statement statement = session.statement();
    statement.allocate(session.task("ns/one/t"), a, List.of(), GpuAmount.ZERO);

    NodeFragmentation after = states.of(a);
    assertThat(after).isNotSameAs(before);
    // 1 whole GPU left: the two-GPU shape cannot land, and loses all 190 free hundredths
    assertThat(after.fragmentation(twoGpusOnly())).isEqualTo(190.0);
    assertThat(after.fragmentation(WEIGHTS))
        .isEqualTo(freshRead(a).fragmentation(WEIGHTS))
        .isNotEqualTo(before.fragmentation(WEIGHTS));
    assertThat(states.of(a)).isSameAs(after);
  }

  @Test
  void theFragmentationWithWholeDevicesTakenIsThatOfTheStateLeft() {
    Session session = session();
    NodeState a = session.node("a");
    TaskState task = session.task("ns/one/t");
    long cpu = task.info().request().cpuMillis();
    long memory = task.info().request().memoryBytes();
    NodeFragmentation before = freshRead(a);
    double one = before.fragmentationWithWhole(1, cpu, memory, WEIGHTS);
    double three = before.fragmentationWithWhole(3, cpu, memory, WEIGHTS);

    session.statement().allocate(task, a, List.of(), GpuAmount.ZERO);

    assertThat(one).isEqualTo(freshRead(a).fragmentation(WEIGHTS));
    assertThat(three).as("only 2 whole GPUs are free").isNaN();
  }

  @Test
  void theFragmentationWithASharedPortionTakenIsThatOfTheStateLeft() {
    NodeFragmentation state = freshRead(session().node("a"));
    for (int portion : new int[] {30, 50, 60, 100}) {
      for (int room : new int[] {30, 60, 100}) {
        double counted = state.fragmentationWithSharedOn(room, portion, 2000, 0, WEIGHTS);
        if (room < portion) {
          assertThat(counted).as("portion %s on room %s", portion, room).isNaN();
        } else {
          assertThat(counted)
              .as("portion %s on room %s", portion, room)
              .isEqualTo(state.takeShared(room, portion, 2000, 0).fragmentation(WEIGHTS));
        }
      }
    }
    assertThat(state.fragmentationWithSharedOn(50, 30, 0, 0, WEIGHTS))
        .as("no device has 0.5 free")
        .isNaN();
  }

  @Test
  void aTaskOnSeveralSharedDevicesTakesEachWhereItLeavesLeast() {
    NodeFragmentation state = freshRead(session().node("a"));

    assertThat(state.fragmentationWithShared(30, 2, 2000, 0, WEIGHTS))
        .isEqualTo(leastLeft(leastLeft(state, 2000), 0).fragmentation(WEIGHTS));
    assertThat(state.fragmentationWithShared(30, 0, 0, 0, WEIGHTS))
        .isEqualTo(state.fragmentation(WEIGHTS));
    assertThat(state.fragmentationWithShared(70, 3, 0, 0, WEIGHTS))
        .as("only 2 devices have 0.7 free")
        .isNaN();
  }

  /**
   * The state with 0.3 taken from the device, of every room that has one, that leaves the least
   * fragmentation (the smallest room among equals), each state placed and read in full.
   */
  private static NodeFragmentation leastLeft(NodeFragmentation state, long cpu) {
    NodeFragmentation best = null;
    for (int room = 30; room <= 100; room++) {
      NodeFragmentation next = state.takeShared(room, 30, cpu, 0);
      if (next != null
          && (best == null || next.fragmentation(WEIGHTS) < best.fragmentation(WEIGHTS))) {
        best = next;
      }
    }
    return best;
  }

  private static ShapeMix.Weights twoGpusOnly() {
    return new ShapeMix.Weights(SHAPES, new double[] {0, 0, 0, 1, 0});
  }

  private static NodeFragmentation freshRead(NodeState node) {
    return new NodeFragmentations(new NodeFragmentation.Shapes(SHAPES)).of(node);
  }
}
