package io.gantry.scheduler.kube.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SnapshotReasonTest {
  @Test
  void anUnknownSubGroupIsToldWithTheLabelAndThePodGroup() {
    assertThat(new SnapshotReason.UnknownSubGroup("decode", "serve").message())
        .isEqualTo(
            "SubGroup \"decode\" of label kai.scheduler/subgroup-name does not exist in PodGroup"
                + " serve");
  }

  @Test
  void theOtherReasonsCarryTheWordsOfTheRuleThatFoundThem() {
    assertThat(new SnapshotReason.InvalidPodGroup("minMember: must be positive").message())
        .isEqualTo("minMember: must be positive");
    assertThat(
            new LiveSnapshot.Problem("ns/p", new SnapshotReason.Ungrouped("owner unreadable"))
                .message())
        .isEqualTo("owner unreadable");
  }
}
