package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.model.ResourceVector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * KAI's reclaim rules (kai-reference §5.6) on hand-set queue amounts: GPUs only (CPU and memory
 * unlimited and unused unless said otherwise).
 */
class ReclaimRulesTest {
  private static final double U = -1;

  /** A queue with GPU deserved, allocated, non-preemptible allocated, fair share, allocatable. */
  private static QueueSnapshot q(
      String name, String parent, double deserved, double allocated, double fairShare) {
    return q(name, parent, deserved, allocated, 0, fairShare);
  }

  private static QueueSnapshot q(
      String name,
      String parent,
      double deserved,
      double allocated,
      double allocatedNonPreemptible,
      double fairShare) {
    double allocatable = deserved == U ? U : Math.max(deserved, fairShare);
    return new QueueSnapshot(
        name,
        Optional.ofNullable(parent),
        new ResourceVector(deserved, U, U),
        new ResourceVector(allocated, 0, 0),
        new ResourceVector(allocatedNonPreemptible, 0, 0),
        new ResourceVector(fairShare, 64_000, 1e12),
        new ResourceVector(allocatable, U, U));
  }

  private static Map<String, QueueAmounts> tree(QueueSnapshot... queues) {
    Map<String, QueueAmounts> out = new LinkedHashMap<>();
    for (QueueSnapshot s : queues) {
      out.put(s.name(), s);
    }
    return out;
  }

  private static ResourceVector gpus(double n) {
    return new ResourceVector(n, 0, 0);
  }

  @Test
  void canReclaimOnlyUpToTheLeafsFairShare() {
    assertThat(ReclaimRules.canReclaimResources(q("b", null, 4, 1, 3), gpus(2), true)).isTrue();
    assertThat(ReclaimRules.canReclaimResources(q("b", null, 4, 2, 3), gpus(2), true)).isFalse();
  }

  @Test
  void aNonPreemptibleReclaimerAlsoStaysWithinDeserved() {
    QueueSnapshot leaf = q("b", null, 2, 1, 1, 6);

    assertThat(ReclaimRules.canReclaimResources(leaf, gpus(1), false)).isTrue();
    assertThat(ReclaimRules.canReclaimResources(leaf, gpus(2), false)).isFalse();
    assertThat(ReclaimRules.canReclaimResources(leaf, gpus(2), true)).isTrue();
  }

  @Test
  void aReclaimerWithinDeservedMayOnlyTakeFromQueuesOverDeserved() {
    Map<String, QueueAmounts> t =
        tree(q("a", null, 4, 6, 6), q("b", null, 4, 0, 2), q("c", null, 4, 3, 4));

    assertThat(ReclaimRules.victimEligible(t::get, "b", gpus(2), "a")).isTrue();
    assertThat(ReclaimRules.victimEligible(t::get, "b", gpus(2), "c")).isFalse();
  }

  @Test
  void aReclaimerGoingOverDeservedMayOnlyTakeFromQueuesOverTheirAllocatableShare() {
    // b asks beyond its deserved 1: a (6 of allocatable 6) is not over; c (7 of 5) is
    Map<String, QueueAmounts> t =
        tree(q("a", null, 4, 6, 6), q("b", null, 1, 1, 3), q("c", null, 2, 7, 5));

    assertThat(ReclaimRules.victimEligible(t::get, "b", gpus(2), "a")).isFalse();
    assertThat(ReclaimRules.victimEligible(t::get, "b", gpus(2), "c")).isTrue();
  }

  @Test
  void strategiesAreCheckedBeforeEachChunkIsTakenAway() {
    // a holds 6 of allocatable 5: the first chunk leaves 5 (checked at 6), a second would be
    // checked at 5 and fail MaintainFairShare; b within deserved 4 passes GuaranteeDeservedQuota
    // while a stays over its deserved 4
    Map<String, QueueAmounts> t = tree(q("a", null, 4, 6, 5), q("b", null, 4, 0, 3));
    ReclaimRules rules = new ReclaimRules(1);

    assertThat(
            rules.reclaimable(t::get, "b", gpus(1), true, Map.of("a", List.of(gpus(1), gpus(1)))))
        .isTrue();
    assertThat(
            rules.reclaimable(
                t::get, "b", gpus(1), true, Map.of("a", List.of(gpus(1), gpus(1), gpus(1)))))
        .isFalse();
  }

  @Test
  void aQueueWithinItsDeservedQuotaIsNeverReclaimed() {
    Map<String, QueueAmounts> t = tree(q("a", null, 4, 4, 4), q("b", null, 4, 0, 4));

    assertThat(
            new ReclaimRules(1)
                .reclaimable(t::get, "b", gpus(1), true, Map.of("a", List.of(gpus(1)))))
        .isFalse();
  }

  @Test
  void siblingSaturationComparesTheReclaimersLevelAfterReclaimWithEverySiblingThatLost() {
    // p (fair share 4) holds 4 and its leaf r asks 1 more: 5/4 = 1.25; s keeps 7 of 4 = 1.75
    Map<String, QueueAmounts> t =
        tree(q("p", null, 4, 4, 4), q("r", "p", 1, 0, 1), q("s", null, 0, 8, 4));

    assertThat(
            new ReclaimRules(1)
                .reclaimable(t::get, "r", gpus(1), true, Map.of("s", List.of(gpus(1)))))
        .isTrue();
    assertThat(
            new ReclaimRules(2)
                .reclaimable(t::get, "r", gpus(1), true, Map.of("s", List.of(gpus(1)))))
        .isFalse();
  }

  @Test
  void aNonPreemptibleReclaimerMustStayWithinDeservedAtEveryLevel() {
    Map<String, QueueAmounts> t =
        tree(q("p", null, 2, 2, 2, 2), q("r", "p", 4, 0, 0, 4), q("s", null, 0, 8, 4));

    assertThat(
            new ReclaimRules(1)
                .reclaimable(t::get, "r", gpus(1), false, Map.of("s", List.of(gpus(1)))))
        .isFalse();
    assertThat(
            new ReclaimRules(1)
                .reclaimable(t::get, "r", gpus(1), true, Map.of("s", List.of(gpus(1)))))
        .isTrue();
  }

  @Test
  void leveledQueuesAreTheChildrenOfTheLowestCommonAncestor() {
    Map<String, QueueAmounts> t =
        tree(
            q("root", null, U, 0, 8),
            q("dept-a", "root", 4, 0, 4),
            q("a1", "dept-a", 2, 0, 2),
            q("dept-b", "root", 4, 0, 4),
            q("b1", "dept-b", 4, 0, 4),
            q("a2", "dept-a", 2, 0, 2));

    assertThat(ReclaimRules.leveled(t::get, "b1", "a1"))
        .extracting(QueueAmounts::name)
        .containsExactly("dept-b", "dept-a");
    assertThat(ReclaimRules.leveled(t::get, "a2", "a1"))
        .extracting(QueueAmounts::name)
        .containsExactly("a2", "a1");
  }
}
