package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.kubeflow;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.replicas;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.KaiObjectException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** TFJobs, XGBoostJobs and JAXJobs: a flat gang of every replica, or minAvailable. */
class KubeflowGrouperTest {
  record Case(String name, String kind, WorkloadSpec.KubeflowSpec spec, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static String summaryOf(String kind, int minMember) {
    return "pg-job-job-uid owner="
        + kind
        + "/job minMember="
        + minMember
        + " minSubGroup=- queue=default-queue class=train preemptibility=- leaf=-";
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a TFJob of chief, parameter servers and workers",
            "TFJob",
            kubeflow(
                ImmutableMap.of("Chief", replicas(1), "PS", replicas(2), "Worker", replicas(4))),
            summaryOf("TFJob", 7)),
        new Case(
            "an XGBoostJob",
            "XGBoostJob",
            kubeflow(ImmutableMap.of("Master", replicas(1), "Worker", replicas(3))),
            summaryOf("XGBoostJob", 4)),
        new Case(
            "a JAXJob with minAvailable",
            "JAXJob",
            new WorkloadSpec.KubeflowSpec(
                ImmutableMap.of("Worker", replicas(8)),
                OptionalInt.of(6),
                OptionalInt.empty(),
                Optional.empty(),
                false),
            summaryOf("JAXJob", 6)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    PodGroupPlan plan =
        GroupingFixtures.planner()
            .plan(
                GroupingInput.ownedBy(
                    owner("kubeflow.org/v1", c.kind(), "job"),
                    c.spec(),
                    pod("job-worker-0", Map.of())));

    assertThat(summary(plan)).isEqualTo(c.summary());
    assertThat(plan.subGroups()).isEmpty();
  }

  record Bad(String name, String kind, WorkloadSpec.KubeflowSpec spec, String field, String msg) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> bad() {
    return Stream.of(
        new Bad(
            "an XGBoostJob without a Master",
            "XGBoostJob",
            kubeflow(ImmutableMap.of("Worker", replicas(3))),
            "spec.xgbReplicaSpecs.Master",
            "the type of the job job doesn't have a Master replica spec which is required."
                + " Please fix the replica field"),
        new Bad(
            "a TFJob without replica specs",
            "TFJob",
            kubeflow(ImmutableMap.of()),
            "spec.tfReplicaSpecs",
            "the type of the job job doesn't have a tfReplicaSpecs field. Please fix the replica"
                + " field"),
        new Bad(
            "a JAXJob worker without replicas",
            "JAXJob",
            kubeflow(
                ImmutableMap.of(
                    "Worker", new ReplicaSpec(OptionalInt.empty(), PodTemplateMeta.EMPTY))),
            "spec.jaxReplicaSpecs.Worker.replicas",
            "the type of the job job doesn't allow for 0 Worker pods. Please fix the replica field"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void rejects(Bad b) {
    GroupingInput input =
        GroupingInput.ownedBy(
            owner("kubeflow.org/v1", b.kind(), "job"), b.spec(), pod("job-worker-0", Map.of()));

    assertThatThrownBy(() -> GroupingFixtures.planner().plan(input))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field()).isEqualTo(b.field());
              assertThat(e.problem()).isEqualTo(b.msg());
            });
  }
}
