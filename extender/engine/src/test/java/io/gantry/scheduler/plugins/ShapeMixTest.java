package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
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
  private static final DemandShape THREE_GPUS =
      new DemandShape(Optional.empty(), 3, 1000, 0, PodPlacementRequirements.none());

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

  /**
   * Over many segments and blocks, every moment (asked in no particular order, a block's first and
   * last sightings among them) weighs each shape by the plain decayed sum of its pods, and the same
   * moment asked of a mix that was asked nothing else gives the very same weights.
   */
  @Test
  void everyMomentOfALongHistoryIsThePlainSum() {
    DemandShape[] shapes = {ONE_GPU, TWO_GPUS, THREE_GPUS};
    List<ShapeMix.Sighting> sightings = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      // the third shape first appears in the middle of a block
      DemandShape shape = i < 77 ? shapes[i % 2] : shapes[(i * 7) % 3];
      sightings.add(new ShapeMix.Sighting(T0.plusSeconds(10L * i), i, shape));
    }
    ShapeMix asked = new ShapeMix(sightings, Duration.ofHours(1), 0.5);
    List<Integer> moments = new ArrayList<>();
    for (int i = 0; i < 300; i += 1 + i % 5) {
      moments.add(i);
    }
    Collections.shuffle(moments, new Random(7));

    for (int m : moments) {
      Instant now = T0.plusSeconds(10L * m);
      ShapeMix.Weights w = asked.at(now);
      ShapeMix.Weights alone = new ShapeMix(sightings, Duration.ofHours(1), 0.5).at(now);
      for (int s = 0; s < w.shapes().size(); s++) {
        double plain = 0;
        for (int i = 0; i <= m; i++) {
          if (sightings.get(i).shape().equals(w.shapes().get(s))) {
            plain +=
                Math.pow(sightings.get(i).shape().gpuAsk(), 0.5)
                    * Math.pow(2, -10.0 * (m - i) / 3600);
          }
        }
        assertThat(w.weight(s)).as("moment %s, shape %s", m, s).isCloseTo(plain, within(1e-9));
        assertThat(w.weight(s)).isEqualTo(alone.weight(s));
      }
      assertThat(w.shapes()).isEqualTo(alone.shapes());
    }
  }
}
