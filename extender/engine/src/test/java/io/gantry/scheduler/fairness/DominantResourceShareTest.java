package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.model.ResourceVector;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

// The cases carry the engine's double[] inputs (per ResourceKind) and are never compared.
@SuppressWarnings("ArrayRecordComponent")
class DominantResourceShareTest {

  /** Vectors are (GPU devices, CPU millicores, memory bytes). */
  record Case(
      String name,
      ResourceVector allocated,
      ResourceVector allocatable,
      ResourceVector clusterTotal,
      double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final ResourceVector CLUSTER = new ResourceVector(16, 64_000, 512e9);

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "the largest ratio dominates",
            new ResourceVector(2, 8_000, 64e9),
            new ResourceVector(8, 32_000, 128e9),
            CLUSTER,
            0.5),
        new Case(
            "unlimited allocatable is replaced by the cluster total",
            new ResourceVector(4, 0, 0),
            new ResourceVector(-1, 32_000, 128e9),
            CLUSTER,
            0.25),
        new Case(
            "allocation on a zero allocatable share costs allocated × 1000",
            new ResourceVector(2, 1_000, 0),
            new ResourceVector(0, 32_000, 128e9),
            CLUSTER,
            2000),
        new Case(
            "zero allocatable with nothing allocated adds nothing",
            new ResourceVector(0, 16_000, 0),
            new ResourceVector(0, 32_000, 128e9),
            CLUSTER,
            0.5),
        new Case(
            "unlimited allocatable on a cluster without the resource is a zero share",
            new ResourceVector(1, 0, 0),
            new ResourceVector(-1, 32_000, 128e9),
            new ResourceVector(0, 64_000, 512e9),
            1000),
        new Case(
            "nothing allocated is a share of 0",
            new ResourceVector(0, 0, 0),
            new ResourceVector(8, 32_000, 128e9),
            CLUSTER,
            0),
        new Case(
            "allocation above the allocatable share exceeds 1",
            new ResourceVector(12, 8_000, 64e9),
            new ResourceVector(8, 32_000, 128e9),
            CLUSTER,
            1.5));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void computesTheDominantShare(Case c) {
    assertThat(DominantResourceShare.of(c.allocated(), c.allocatable(), c.clusterTotal()))
        .isEqualTo(c.expected());
  }
}
