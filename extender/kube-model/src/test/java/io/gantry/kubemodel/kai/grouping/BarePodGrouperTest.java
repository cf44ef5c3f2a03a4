package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Pods without owners: their own PodGroup; Spark pods share their application's. */
class BarePodGrouperTest {
  record Case(
      String name, Map<String, String> labels, Optional<String> priorityClass, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String own = "pg-gpu-pod-gpu-pod-uid owner=Pod/gpu-pod minMember=1 minSubGroup=-";
    return Stream.of(
        new Case(
            "KAI's gpu-pod: its own PodGroup in its queue",
            Map.of("kai.scheduler/queue", "default-queue"),
            Optional.empty(),
            own + " queue=default-queue class=train preemptibility=- leaf=-"),
        new Case(
            "a priorityClassName that exists",
            Map.of(),
            Optional.of("build"),
            own + " queue=default-queue class=build preemptibility=- leaf=-"),
        new Case(
            "a Spark pod joins its application's PodGroup",
            Map.of("spark-app-name", "etl", "spark-app-selector", "spark-1234"),
            Optional.empty(),
            "spark-1234 owner=Pod/gpu-pod minMember=1 minSubGroup=- queue=default-queue"
                + " class=train preemptibility=- leaf=-"),
        new Case(
            "the selector alone is not a Spark pod",
            Map.of("spark-app-selector", "spark-1234"),
            Optional.empty(),
            own + " queue=default-queue class=train preemptibility=- leaf=-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    PodMeta pod =
        PodMeta.of("ml", "gpu-pod", "gpu-pod-uid", c.labels(), Map.of(), c.priorityClass(), false);

    assertThat(summary(GroupingFixtures.planner().plan(GroupingInput.barePod(pod))))
        .isEqualTo(c.summary());
  }
}
