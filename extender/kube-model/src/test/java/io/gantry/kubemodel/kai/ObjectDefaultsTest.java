package io.gantry.kubemodel.kai;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Priority, preemptibility and queue defaults: the facts kai-reference §14 says are often wrong.
 */
class ObjectDefaultsTest {

  @Test
  void priorityComesFromTheClassElseTheGlobalDefaultElseFifty() {
    PriorityClassTable kai = PriorityClassTable.KAI_DEFAULTS;
    assertThat(kai.classes())
        .containsExactly(
            java.util.Map.entry("train", 50),
            java.util.Map.entry("build-preemptible", 75),
            java.util.Map.entry("build", 100),
            java.util.Map.entry("inference", 125));
    assertThat(kai.priorityOf(Optional.of("inference"))).isEqualTo(125);
    assertThat(kai.priorityOf(Optional.of("urgent"))).isEqualTo(50);
    assertThat(kai.priorityOf(Optional.empty())).isEqualTo(50);
    PriorityClassTable withDefault =
        new PriorityClassTable(ImmutableMap.of("batch", 10), OptionalInt.of(70));
    assertThat(withDefault.priorityOf(Optional.of("urgent"))).isEqualTo(70);
    assertThat(withDefault.priorityOf(Optional.of("batch"))).isEqualTo(10);
  }

  @Test
  void belowOneHundredIsPreemptibleUnlessSaidOtherwise() {
    assertThat(Preemptibility.isPreemptible(Optional.empty(), 99)).isTrue();
    assertThat(Preemptibility.isPreemptible(Optional.empty(), 100)).isFalse();
    assertThat(Preemptibility.isPreemptible(Optional.of(Preemptibility.NON_PREEMPTIBLE), 50))
        .isFalse();
    assertThat(Preemptibility.isPreemptible(Optional.of(Preemptibility.PREEMPTIBLE), 125)).isTrue();
    assertThat(Preemptibility.parse("non-preemptible")).contains(Preemptibility.NON_PREEMPTIBLE);
    assertThat(Preemptibility.parse("semi-preemptible")).isEmpty();
  }

  @Test
  void anUnsetLimitIsACapOfZeroAndOnlyMinusOneIsUnlimited() {
    OptionalDouble unset = OptionalDouble.empty();
    assertThat(QueueDefaults.resource(ResourceKind.GPU, unset, unset, unset))
        .isEqualTo(new QueueResource(0, 0, 0));
    assertThat(QueueDefaults.absent()).isEqualTo(new QueueResource(0, 0, 0));
    assertThat(
            QueueDefaults.resource(
                ResourceKind.GPU,
                OptionalDouble.of(-1),
                OptionalDouble.of(-1),
                OptionalDouble.of(-1)))
        .isEqualTo(new QueueResource(-1, 0, -1));
    assertThat(
            QueueDefaults.resource(
                ResourceKind.GPU,
                OptionalDouble.of(2.5),
                OptionalDouble.of(3),
                OptionalDouble.of(0)))
        .isEqualTo(new QueueResource(2.5, 3, 0));
  }

  @Test
  void queueMemoryIsWrittenInMegabytesAndKeptInBytes() {
    assertThat(
            QueueDefaults.resource(
                ResourceKind.MEMORY,
                OptionalDouble.of(512),
                OptionalDouble.of(1),
                OptionalDouble.of(-1)))
        .isEqualTo(new QueueResource(512_000_000, 1, -1));
    assertThat(QueueDefaults.priority(OptionalInt.empty())).isEqualTo(100);
    assertThat(QueueDefaults.priority(OptionalInt.of(7))).isEqualTo(7);
  }
}
