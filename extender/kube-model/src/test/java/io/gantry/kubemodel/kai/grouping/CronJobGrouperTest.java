package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CronJobs: grouped by the Job that runs the pod, with the default rules. */
class CronJobGrouperTest {
  record Case(String name, OwnerMeta cronJob, OwnerMeta job, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    OwnerMeta job =
        owner(
            "batch/v1",
            "Job",
            "nightly-29452320",
            Map.of("kai.scheduler/queue", "etl"),
            Map.of("kai.scheduler/batch-min-member", "3"));
    return Stream.of(
        new Case(
            "the Job's PodGroup, minMember 1, its queue",
            owner("batch/v1", "CronJob", "nightly"),
            job,
            "pg-nightly-29452320-nightly-29452320-uid owner=Job/nightly-29452320 minMember=1"
                + " minSubGroup=- queue=etl class=train preemptibility=- leaf=-"),
        new Case(
            "the CronJob's labels are not read",
            owner(
                "batch/v1",
                "CronJob",
                "nightly",
                Map.of("priorityClassName", "build", "kai.scheduler/queue", "other"),
                Map.of()),
            job,
            "pg-nightly-29452320-nightly-29452320-uid owner=Job/nightly-29452320 minMember=1"
                + " minSubGroup=- queue=etl class=train preemptibility=- leaf=-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    GroupingInput input =
        GroupingInput.of(
            List.of(c.job(), c.cronJob()),
            new WorkloadSpec.CronJobSpec(c.job()),
            pod("nightly-29452320-x", Map.of()));

    assertThat(summary(GroupingFixtures.planner().plan(input))).isEqualTo(c.summary());
  }
}
