package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueAssignment;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Knative Services: a gang per Revision of min-scale pods, or a PodGroup per pod. */
class KnativeGrouperTest {
  private static final OwnerMeta SERVICE = owner("serving.knative.dev/v1", "Service", "hello");

  record Case(
      String name,
      boolean gangSchedule,
      Map<String, String> revisionAnnotations,
      boolean podGroupPerPod,
      Map<String, String> podLabels,
      String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String revision = "pg-hello-00001-hello-00001-uid owner=Revision/hello-00001";
    String pod =
        "pg-hello-00001-deployment-x-hello-00001-deployment-x-uid owner=Pod/hello-00001-deployment-x";
    return Stream.of(
        new Case(
            "a gang of min-scale pods",
            true,
            Map.of("autoscaling.knative.dev/min-scale", "3"),
            false,
            Map.of(),
            revision
                + " minMember=3 minSubGroup=- queue=serving class=inference preemptibility=-"
                + " leaf=-"),
        new Case(
            "no min-scale, or one that is not a number, is 1",
            true,
            Map.of("autoscaling.knative.dev/min-scale", "many"),
            false,
            Map.of("priorityClassName", "build"),
            revision
                + " minMember=1 minSubGroup=- queue=serving class=build preemptibility=- leaf=-"),
        new Case(
            "gang scheduling off: a PodGroup per pod, always inference",
            false,
            Map.of("autoscaling.knative.dev/min-scale", "3"),
            false,
            Map.of("priorityClassName", "build"),
            pod
                + " minMember=1 minSubGroup=- queue=serving class=inference preemptibility=- leaf=-"),
        new Case(
            "a revision grouped per pod before stays so",
            true,
            Map.of(),
            true,
            Map.of(),
            pod
                + " minMember=1 minSubGroup=- queue=serving class=inference preemptibility=-"
                + " leaf=-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    OwnerMeta revision =
        OwnerMeta.of(
            "serving.knative.dev/v1",
            "Revision",
            "hello-00001",
            "hello-00001-uid",
            Map.of("kai.scheduler/queue", "serving"),
            c.revisionAnnotations());
    GroupingConfig config =
        new GroupingConfig(
            QueueAssignment.kaiDefaults(),
            PriorityClassTable.KAI_DEFAULTS,
            WorkloadTypeDefaults.NONE,
            c.gangSchedule());
    GroupingInput input =
        GroupingInput.of(
            List.of(revision, SERVICE),
            new WorkloadSpec.KnativeSpec(revision, c.podGroupPerPod()),
            pod("hello-00001-deployment-x", c.podLabels()));

    assertThat(summary(new PodGroupPlanner(config).plan(input))).isEqualTo(c.summary());
  }
}
