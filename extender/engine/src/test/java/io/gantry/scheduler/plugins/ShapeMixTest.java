package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The learned mix counts only pods created by the moment asked about, each by the GPU it asks for
 * to a power (here the square root), halving per half-life.
 */
class ShapeMixTest {
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final DemandShape ONE_GPU =
      new DemandShape(Optional.empty(), 1, 1000, 0, PodPlacementRequirements.none());
  private static final DemandShape TWO_GPUS =
      new DemandShape(Optional.empty(), 2, 1000, 0, PodPlacementRequirements.none());

  private final ShapeMix mix =
      new ShapeMix(
          List.of(
              new ShapeMix.Sighting(T0.plusSeconds(3600), 1, TWO_GPUS),
              new ShapeMix.Sighting(T0, 0, ONE_GPU)),
          Duration.ofHours(1),
          0.5);

  @Test
  void countsNothingCreatedLater() {
    ShapeMix.Weights w = mix.at(T0);

    assertThat(w.shapes()).containsExactly(ONE_GPU);
    assertThat(w.weight(0)).isEqualTo(1.0);
  }

  @Test
  void halvesAPodPerHalfLife() {
    ShapeMix.Weights w = mix.at(T0.plusSeconds(3600));

    assertThat(w.shapes()).containsExactly(ONE_GPU, TWO_GPUS);
    assertThat(w.weight(0)).isCloseTo(0.5, within(1e-12));
    assertThat(w.weight(1))
        .as("two GPUs weigh the square root of two")
        .isCloseTo(Math.sqrt(2), within(1e-12));
  }

  @Test
  void weighsAPodByItsGpuAskToTheExponent() {
    ShapeMix byCount =
        new ShapeMix(List.of(new ShapeMix.Sighting(T0, 0, TWO_GPUS)), Duration.ofHours(1), 0);
    ShapeMix byGpu =
        new ShapeMix(List.of(new ShapeMix.Sighting(T0, 0, TWO_GPUS)), Duration.ofHours(1), 1);

    assertThat(byCount.at(T0).weight(0)).as("exponent 0 counts pods").isEqualTo(1.0);
    assertThat(byGpu.at(T0).weight(0)).as("exponent 1 counts GPU").isCloseTo(2.0, within(1e-12));
  }

  @Test
  void goingBackInTimeForgetsLaterPods() {
    mix.at(T0.plusSeconds(7200));

    ShapeMix.Weights w = mix.at(T0.plusSeconds(1800));

    assertThat(w.shapes()).containsExactly(ONE_GPU);
    assertThat(w.weight(0)).isCloseTo(Math.pow(2, -0.5), within(1e-12));
  }

  /**
   * Going back restarts from the moment asked about before it (a checkpoint), not from nothing:
   * asked again, a moment gives the very weights it gave the first time, and moving on from there
   * counts the pods created since.
   */
  @Test
  void goingBackRestartsFromAnEarlierMoment() {
    ShapeMix.Weights first = mix.at(T0.plusSeconds(1800));
    mix.at(T0.plusSeconds(7200));

    assertThat(mix.at(T0.plusSeconds(1800))).isSameAs(first);
    ShapeMix.Weights later = mix.at(T0.plusSeconds(3600));
    assertThat(later.shapes()).containsExactly(ONE_GPU, TWO_GPUS);
    assertThat(later.weight(0)).isCloseTo(0.5, within(1e-12));
  }
}
