package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
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
 * Each shape of the mix weighs its learnt weight over the square of the nodes that could still take
 * one task of it, recounted as tasks land; the same weights again while no count moved.
 */
class ShapeScarcityTest {
  private static final DemandShape ONE_GPU =
      new DemandShape(Optional.empty(), 1, 1000, 0, PodPlacementRequirements.none());
  private static final DemandShape TWO_GPUS =
      new DemandShape(Optional.empty(), 2, 1000, 0, PodPlacementRequirements.none());
  private static final ImmutableList<DemandShape> SHAPES = ImmutableList.of(ONE_GPU, TWO_GPUS);
  private static final ShapeMix.Weights LEARNT =
      new ShapeMix.Weights(SHAPES, new double[] {3.0, 5.0});

  /** Nodes {@code a} and {@code b} with 4 idle GPUs each; pending tasks of one and two GPUs. */
  private static Session session() {
    return Sessions.open(
        Snapshots.of(
            List.of(
                Nodes.node("a").gpus(4).cpu("64").build(),
                Nodes.node("b").gpus(4).cpu("64").build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("one").task(Tasks.task("t").gpus(1)).build(),
                Jobs.job("two").task(Tasks.task("t").gpus(2)).build())));
  }

  @Test
  void weighsEachShapeByTheNodesLeftForItAsTasksLand() {
    Session session = session();
    NodeState a = session.node("a");
    NodeFragmentations states = new NodeFragmentations(new NodeFragmentation.Shapes(SHAPES));
    ShapeScarcity scarcity = new ShapeScarcity(SHAPES.size(), session.nodes(), states::of);

    ShapeMix.Weights before = scarcity.weigh(LEARNT);
    assertThat(before.weight(0)).isEqualTo(3.0 / 4);
    assertThat(before.weight(1)).isEqualTo(5.0 / 4);

    // 3 GPUs left on a: both shapes still land there, so no count moved
    session.statement().allocate(session.task("ns/one/t"), a, List.of(), GpuAmount.ZERO);
    scarcity.changed(a);
    assertThat(scarcity.weigh(LEARNT)).isSameAs(before);

    // 1 GPU left on a: only b can take two GPUs
    session.statement().allocate(session.task("ns/two/t"), a, List.of(), GpuAmount.ZERO);
    scarcity.changed(a);
    ShapeMix.Weights after = scarcity.weigh(LEARNT);
    assertThat(after.weight(0)).isEqualTo(3.0 / 4);
    assertThat(after.weight(1)).isEqualTo(5.0);
  }
}
