package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of placing and releasing shared tasks on random nodes, through the module's
 * rules (candidates, device choice, group accounting), never put more than one device's portion or
 * memory on a GPU, never mix compute modes on one, and give every device back when its tasks leave.
 */
class SharedGpuAllocationPropertyTest {
  record NodeShape(int devices, long deviceMemoryMib, DeviceOrder order) {}

  /** Place a request, or release the {@code victim}-th task still placed (modulo their number). */
  record Step(Optional<GpuSharingRequest> place, int victim) {}

  @Provide
  Arbitrary<NodeShape> nodes() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 8),
            Arbitraries.of(16_384L, 40_960L, 81_920L, 141_312L),
            Arbitraries.of(DeviceOrder.class))
        .as(NodeShape::new);
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<GpuSharingRequest> fraction =
        Combinators.combine(
                Arbitraries.integers().between(1, 99), Arbitraries.integers().between(1, 3))
            .as((h, n) -> GpuSharingRequest.ofFraction(h / 100.0, n));
    Arbitrary<GpuSharingRequest> memory =
        Combinators.combine(
                Arbitraries.longs().between(1, 150_000), Arbitraries.integers().between(1, 3))
            .as(GpuSharingRequest::ofMemory);
    Arbitrary<GpuSharingRequest> request =
        Combinators.combine(Arbitraries.oneOf(fraction, memory), Arbitraries.of(ComputeMode.class))
            .as(GpuSharingRequest::withComputeMode);
    Arbitrary<Step> place = request.map(r -> new Step(Optional.of(r), 0));
    Arbitrary<Step> release =
        Arbitraries.integers().between(0, 1_000).map(v -> new Step(Optional.empty(), v));
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, place), net.jqwik.api.Tuple.of(2, release))
        .list()
        .ofMaxSize(60);
  }

  @Property(tries = 400)
  void placementsKeepEveryDeviceWithinItsCapacityAndMode(
      @ForAll("nodes") NodeShape shape, @ForAll("steps") List<Step> steps) {
    SimNode node = new SimNode(shape);
    for (Step step : steps) {
      if (step.place().isPresent()) {
        node.place(step.place().get());
      } else {
        node.releaseAt(step.victim());
      }
      node.checkInvariants();
    }
    while (node.placedCount() > 0) {
      node.releaseAt(0);
      node.checkInvariants();
    }
    assertThat(node.groups.isEmpty()).isTrue();
    assertThat(node.idleWholeGpus).isEqualTo(shape.devices());
  }

  /** One node driven through the module's rules only, as the engine's session drives them. */
  private static final class SimNode {
    private final NodeShape shape;
    private final NodeGpuGroups groups = new NodeGpuGroups();
    private final List<Placed> placed = new ArrayList<>();
    private final Map<String, TreeSet<ComputeMode>> modesByGroup = new HashMap<>();
    private int idleWholeGpus;

    record Placed(GpuSharingRequest request, GpuAmount portion, ImmutableList<String> groups) {}

    SimNode(NodeShape shape) {
      this.shape = shape;
      this.idleWholeGpus = shape.devices();
    }

    int placedCount() {
      return placed.size();
    }

    void place(GpuSharingRequest r) {
      if (!r.fitsDeviceOn(shape.deviceMemoryMib())) {
        return;
      }
      GpuAmount portion = r.portionOn(shape.deviceMemoryMib());
      List<GpuCandidate> candidates =
          GpuCandidates.of(groups.views(), idleWholeGpus, 0, portion, r.computeMode());
      Optional<ImmutableList<GpuCandidate>> choice =
          DeviceChooser.choose(candidates, r.numDevices(), shape.order()::score);
      if (choice.isEmpty()) {
        return;
      }
      List<String> ids = new ArrayList<>();
      int opened = 0;
      for (GpuCandidate c : choice.get()) {
        ids.add(c.groupId().orElse(groups.newGroupId("n", opened++)));
      }
      for (String id : ids) {
        if (groups.place(id, portion, r.computeMode(), false, DeviceSource.IDLE)) {
          idleWholeGpus--;
        }
        modesByGroup.computeIfAbsent(id, k -> new TreeSet<>()).add(r.computeMode());
      }
      placed.add(new Placed(r, portion, ImmutableList.copyOf(ids)));
    }

    void releaseAt(int victim) {
      if (placed.isEmpty()) {
        return;
      }
      Placed p = placed.remove(victim % placed.size());
      for (String id : p.groups()) {
        Optional<DeviceSource> freed = groups.remove(id, p.portion(), false);
        if (freed.isPresent()) {
          assertThat(freed).contains(DeviceSource.IDLE);
          idleWholeGpus++;
          modesByGroup.remove(id);
        }
      }
    }

    void checkInvariants() {
      assertThat(idleWholeGpus).isBetween(0, shape.devices());
      assertThat(idleWholeGpus + groups.views().size()).isEqualTo(shape.devices());
      TreeMap<String, GpuAmount> usedByGroup = new TreeMap<>();
      for (Placed p : placed) {
        assertThat(new TreeSet<>(p.groups())).hasSize(p.groups().size());
        p.groups().forEach(g -> usedByGroup.merge(g, p.portion(), GpuAmount::plus));
      }
      for (GpuGroupView g : groups.views()) {
        assertThat(g.usedPortion()).isLessThanOrEqualTo(GpuAmount.ofDevices(1));
        assertThat(g.usedPortion()).isEqualTo(usedByGroup.get(g.id()));
        assertThat(g.usedMemoryMib(shape.deviceMemoryMib()))
            .isLessThanOrEqualTo(shape.deviceMemoryMib());
        assertThat(modesByGroup.get(g.id())).containsExactly(g.computeMode());
      }
      assertThat(usedByGroup.keySet())
          .containsExactlyElementsOf(groups.views().stream().map(GpuGroupView::id).toList());
    }
  }
}
