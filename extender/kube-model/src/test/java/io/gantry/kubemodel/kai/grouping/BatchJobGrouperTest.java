package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.kai.KaiObjectException;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** batch/v1 Jobs: one PodGroup, minMember 1 or the batch-min-member annotation. */
class BatchJobGrouperTest {
  record Case(String name, Map<String, String> annotations, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodGroupPlan plan(Map<String, String> annotations) {
    OwnerMeta job = owner("batch/v1", "Job", "batch-job", Map.of(), annotations);
    PodMeta pod = pod("batch-job-abcde", Map.of("kai.scheduler/queue", "default-queue"));
    return GroupingFixtures.planner().plan(GroupingInput.ownedBy(job, WorkloadSpec.PLAIN, pod));
  }

  static Stream<Case> cases() {
    String head = "pg-batch-job-batch-job-uid owner=Job/batch-job";
    String tail = " minSubGroup=- queue=default-queue class=train preemptibility=- leaf=-";
    return Stream.of(
        new Case("KAI's batch-job: minMember 1", Map.of(), head + " minMember=1" + tail),
        new Case(
            "KAI's batch-job-min-member: the annotation",
            Map.of("kai.scheduler/batch-min-member", "2"),
            head + " minMember=2" + tail));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    assertThat(summary(plan(c.annotations()))).isEqualTo(c.summary());
  }

  @Test
  void aMinMemberThatIsNotANumberIsAnError() {
    assertThatThrownBy(() -> plan(Map.of("kai.scheduler/batch-min-member", "two")))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field())
                  .isEqualTo("metadata.annotations.kai.scheduler/batch-min-member");
              assertThat(e.problem())
                  .isEqualTo("invalid kai.scheduler/batch-min-member annotation: \"two\"");
            });
  }
}
