package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

// The cases carry the engine's double[] inputs (per ResourceKind) and are never compared.
@SuppressWarnings("ArrayRecordComponent")
class DominantResourceShareTest {

  /** Resources in the order GPU, CPU millicores, memory bytes. */
  record Case(
      String name,
      double[] allocated,
      double[] allocatable,
      double[] clusterTotal,
      double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final double[] CLUSTER = {16, 64_000, 512e9};

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "the largest ratio dominates",
            new double[] {2, 8_000, 64e9},
            new double[] {8, 32_000, 128e9},
            CLUSTER,
            0.5),
        new Case(
            "unlimited allocatable is replaced by the cluster total",
            new double[] {4, 0, 0},
            new double[] {-1, 32_000, 128e9},
            CLUSTER,
            0.25),
        new Case(
            "allocation on a zero allocatable share costs allocated × 1000",
            new double[] {2, 1_000, 0},
            new double[] {0, 32_000, 128e9},
            CLUSTER,
            2000),
        new Case(
            "zero allocatable with nothing allocated adds nothing",
            new double[] {0, 16_000, 0},
            new double[] {0, 32_000, 128e9},
            CLUSTER,
            0.5),
        new Case(
            "unlimited allocatable on a cluster without the resource is a zero share",
            new double[] {1, 0, 0},
            new double[] {-1, 32_000, 128e9},
            new double[] {0, 64_000, 512e9},
            1000),
        new Case(
            "nothing allocated is a share of 0",
            new double[] {0, 0, 0},
            new double[] {8, 32_000, 128e9},
            CLUSTER,
            0),
        new Case(
            "allocation above the allocatable share exceeds 1",
            new double[] {12, 8_000, 64e9},
            new double[] {8, 32_000, 128e9},
            CLUSTER,
            1.5));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void computesTheDominantShare(Case c) {
    assertThat(DominantResourceShare.of(c.allocated(), c.allocatable(), c.clusterTotal()))
        .isEqualTo(c.expected());
  }

  @Test
  void rejectsArraysOfDifferentLengths() {
    assertThatThrownBy(
            () -> DominantResourceShare.of(new double[] {1, 2}, new double[] {1}, new double[2]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resource arrays differ in length: allocated 2, allocatable 1, clusterTotal 2");
  }
}
