package io.gantry.kubemodel.kai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** KAI's queue resolution: queue label (owner wins), then project, then default-queue. */
class QueueAssignmentTest {
  record Case(
      String name,
      QueueAssignment rule,
      Map<String, String> owner,
      Map<String, String> pod,
      String queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    QueueAssignment kai = QueueAssignment.kaiDefaults();
    QueueAssignment pools = new QueueAssignment("kai.scheduler/queue", Optional.of("pool"));
    QueueAssignment custom = new QueueAssignment("team", Optional.empty());
    return Stream.of(
        new Case("no labels", kai, Map.of(), Map.of(), "default-queue"),
        new Case("pod label", kai, Map.of(), Map.of("kai.scheduler/queue", "research"), "research"),
        new Case(
            "the owner's label wins over the pod's",
            kai,
            Map.of("kai.scheduler/queue", "from-owner"),
            Map.of("kai.scheduler/queue", "from-pod"),
            "from-owner"),
        new Case(
            "an empty label counts as none",
            kai,
            Map.of("kai.scheduler/queue", ""),
            Map.of(),
            "default-queue"),
        new Case("project fallback", kai, Map.of(), Map.of("project", "vision"), "vision"),
        new Case(
            "project in a node pool",
            pools,
            Map.of("project", "vision"),
            Map.of("pool", "a100"),
            "vision-a100"),
        new Case(
            "the queue label beats the project",
            pools,
            Map.of("project", "vision"),
            Map.of("kai.scheduler/queue", "q", "pool", "a100"),
            "q"),
        new Case(
            "a configured queue label key", custom, Map.of(), Map.of("team", "infra"), "infra"),
        new Case(
            "the default key is not read when another is configured",
            custom,
            Map.of(),
            Map.of("kai.scheduler/queue", "ignored"),
            "default-queue"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void resolves(Case c) {
    assertThat(c.rule().queueOf(c.owner(), c.pod())).isEqualTo(c.queue());
  }
}
