package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.ReclaimCeiling;
import io.gantry.scheduler.model.ResourceVector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
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

  private static Map<String, ReclaimCeiling.VictimGpus> victims(Object... leafGpusLargest) {
    Map<String, ReclaimCeiling.VictimGpus> out = new LinkedHashMap<>();
    for (int i = 0; i < leafGpusLargest.length; i += 3) {
      out.put(
          (String) leafGpusLargest[i],
          new ReclaimCeiling.VictimGpus(
              ((Number) leafGpusLargest[i + 1]).doubleValue(),
              ((Number) leafGpusLargest[i + 2]).doubleValue()));
    }
    return out;
  }

  @Test
  void aQueueOverInGpusAloneGivesItsExcessPlusOneMoreChunkAtMost() {
    // a holds 7 GPUs of deserved 4 (allocatable 5): chunks go while it holds more than 4
    Map<String, QueueAmounts> t = tree(q("a", null, 4, 7, 5), q("b", null, 4, 0, 3));

    assertThat(ReclaimRules.reclaimableGpus(t::get, "b", victims("a", 7, 2))).isEqualTo(5);
    assertThat(ReclaimRules.reclaimableGpus(t::get, "b", victims("a", 7, 1))).isEqualTo(4);
    // never more than the victims hold
    assertThat(ReclaimRules.reclaimableGpus(t::get, "b", victims("a", 3, 2))).isEqualTo(3);
  }

  @Test
  void aQueueOverInNothingGivesNothing() {
    Map<String, QueueAmounts> t = tree(q("a", null, 4, 4, 4), q("b", null, 4, 0, 4));

    assertThat(ReclaimRules.reclaimableGpus(t::get, "b", victims("a", 4, 1))).isZero();
  }

  @Test
  void aQueueOverInCpuMayGiveEveryGpuItsVictimsHold() {
    QueueSnapshot overInCpu =
        new QueueSnapshot(
            "a",
            Optional.empty(),
            new ResourceVector(4, 1_000, U),
            new ResourceVector(4, 2_000, 0),
            ResourceVector.ZERO,
            new ResourceVector(4, 1_000, 1e12),
            new ResourceVector(4, 1_000, U));
    Map<String, QueueAmounts> t = tree(overInCpu, q("b", null, 4, 0, 4));

    assertThat(ReclaimRules.reclaimableGpus(t::get, "b", victims("a", 4, 1))).isEqualTo(4);
  }

  @Test
  void leavesUnderOneLeveledQueueShareItsCeiling() {
    // dept-a holds 6 of deserved 4; a reclaimer under dept-b may take at most 2 + 1 from a1 and a2
    Map<String, QueueAmounts> t =
        tree(
            q("dept-a", null, 4, 6, 4),
            q("a1", "dept-a", 2, 3, 2),
            q("a2", "dept-a", 2, 3, 2),
            q("dept-b", null, 4, 0, 4),
            q("b1", "dept-b", 4, 0, 4));

    assertThat(ReclaimRules.reclaimableGpus(t::get, "b1", victims("a1", 3, 1, "a2", 3, 1)))
        .isEqualTo(3);
  }

  /**
   * No set of chunks {@link ReclaimRules#reclaimable} accepts takes more than the ceiling, on
   * random queues whose allocation includes their victims' (as a session's does).
   */
  @Test
  void noAcceptedScenarioTakesMoreThanTheCeiling() {
    Random random = new Random(13);
    int accepted = 0;
    for (int round = 0; round < 2_000; round++) {
      Map<String, List<ResourceVector>> chunks = new LinkedHashMap<>();
      Map<String, ReclaimCeiling.VictimGpus> held = new LinkedHashMap<>();
      Map<String, Double> allocated = new LinkedHashMap<>();
      double taken = 0;
      for (String leaf : List.of("a1", "a2", "c")) {
        List<ResourceVector> leafChunks = new ArrayList<>();
        double leafGpus = 0;
        double largest = 0;
        for (int i = random.nextInt(5); i > 0; i--) {
          double g = 1 + random.nextInt(3);
          leafChunks.add(gpus(g));
          leafGpus += g;
          largest = Math.max(largest, g);
        }
        allocated.put(leaf, leafGpus + random.nextInt(3));
        if (!leafChunks.isEmpty()) {
          chunks.put(leaf, leafChunks);
          held.put(leaf, new ReclaimCeiling.VictimGpus(leafGpus, largest));
          taken += leafGpus;
        }
      }
      double deptAllocated = allocated.get("a1") + allocated.get("a2") + random.nextInt(3);
      Map<String, QueueAmounts> t =
          tree(
              q("dept-a", null, random.nextInt(12), deptAllocated, random.nextInt(12)),
              q("a1", "dept-a", random.nextInt(6), allocated.get("a1"), random.nextInt(6)),
              q("a2", "dept-a", random.nextInt(6), allocated.get("a2"), random.nextInt(6)),
              q("c", null, random.nextInt(8), allocated.get("c"), random.nextInt(8)),
              q("r", null, 2 + random.nextInt(6), random.nextInt(3), 2 + random.nextInt(6)));
      if (new ReclaimRules(1).reclaimable(t::get, "r", gpus(1), true, chunks)) {
        accepted++;
        assertThat(taken)
            .as("round %d", round)
            .isLessThanOrEqualTo(ReclaimRules.reclaimableGpus(t::get, "r", held));
      }
    }
    assertThat(accepted).as("scenarios accepted").isGreaterThan(100);
  }
}
