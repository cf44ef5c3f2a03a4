package io.gantry.scheduler.sim.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.cycle.SchedulerWiring;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every policy replays a generated trace through the engine's cycle: each placement fits the node
 * (CPU, memory, GPUs, shared-GPU fractions, GPU model; {@link TraceLedger#place} fails otherwise),
 * and the same seed gives the same placements.
 */
class InflateReplayTest {
  private static final List<TraceNode> NODES = TraceFixtures.nodes(24, 7);
  private static final List<TraceTask> TASKS = TraceFixtures.tasks(300, 7);
  private static final InflateReplay REPLAY = new InflateReplay(new SchedulerWiring());

  @ParameterizedTest(name = "{0}")
  @EnumSource(PlacementStrategy.class)
  void placesOnlyWhereTheTaskFitsAndRepeatsPerSeed(PlacementStrategy policy) {
    long capacity = new TraceLedger(NODES).capacityMilli();
    ImmutableList<TraceTask> arrivals = InflateArrivals.of(TASKS, capacity, 1.3, 42);

    ImmutableList<Optional<TraceLedger.Placed>> first = REPLAY.run(NODES, arrivals, policy);
    ImmutableList<Optional<TraceLedger.Placed>> again = REPLAY.run(NODES, arrivals, policy);

    TraceLedger ledger = new TraceLedger(NODES);
    TreeMap<String, String> models = new TreeMap<>();
    NODES.forEach(n -> models.put(n.name(), n.model()));
    long placedDemand = 0;
    for (int i = 0; i < arrivals.size(); i++) {
      if (first.get(i).isPresent()) {
        TraceTask t = arrivals.get(i);
        ledger.place(t, first.get(i).get());
        placedDemand += t.gpuDemandMilli();
        if (!t.gpuModels().isEmpty()) {
          assertThat(t.gpuModels()).contains(models.get(first.get(i).get().node()));
        }
      }
    }
    assertThat(ledger.allocatedMilli()).isEqualTo(placedDemand).isLessThanOrEqualTo(capacity);
    assertThat(first.stream().filter(Optional::isPresent).count())
        .as("arrivals beyond 1.3 × capacity cannot all fit")
        .isLessThan(arrivals.size());
    assertThat(again).isEqualTo(first);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = PlacementStrategy.class,
      names = {"BINPACK", "FRAGMENTATION_AWARE"})
  void aTaskNoNodeCanHoldIsDropped(PlacementStrategy policy) {
    List<TraceNode> nodes = List.of(TraceFixtures.node("n1", 2, "T4"));
    List<TraceTask> arrivals =
        List.of(
            TraceFixtures.task("too-big", 4, 1000),
            TraceFixtures.task("wrong-model", 1, 1000, "V100"),
            TraceFixtures.task("fits", 1, 500, "T4", "V100"));

    ImmutableList<Optional<TraceLedger.Placed>> placed = REPLAY.run(nodes, arrivals, policy);

    assertThat(placed.get(0)).isEmpty();
    assertThat(placed.get(1)).isEmpty();
    assertThat(placed.get(2)).hasValueSatisfying(p -> assertThat(p.node()).isEqualTo("n1"));
  }
}
