package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Deployments: one PodGroup per pod, inference by default. */
class DeploymentGrouperTest {
  private static final OwnerMeta DEPLOYMENT =
      owner("apps/v1", "Deployment", "web", Map.of("kai.scheduler/queue", "serving"), Map.of());
  private static final OwnerMeta REPLICA_SET = owner("apps/v1", "ReplicaSet", "web-5d8f");

  static GroupingInput input(PodMeta pod) {
    return GroupingInput.of(List.of(REPLICA_SET, DEPLOYMENT), WorkloadSpec.PLAIN, pod);
  }

  @Test
  void aDeploymentOfThreeReplicasIsThreePodGroups() {
    List<PodGroupPlan> plans =
        Stream.of("web-5d8f-a", "web-5d8f-b", "web-5d8f-c")
            .map(name -> GroupingFixtures.planner().plan(input(pod(name, Map.of()))))
            .toList();

    assertThat(plans.stream().map(GroupingFixtures::summary))
        .containsExactly(
            "pg-web-5d8f-a-web-5d8f-a-uid owner=Pod/web-5d8f-a minMember=1 minSubGroup=-"
                + " queue=serving class=inference preemptibility=- leaf=-",
            "pg-web-5d8f-b-web-5d8f-b-uid owner=Pod/web-5d8f-b minMember=1 minSubGroup=-"
                + " queue=serving class=inference preemptibility=- leaf=-",
            "pg-web-5d8f-c-web-5d8f-c-uid owner=Pod/web-5d8f-c minMember=1 minSubGroup=-"
                + " queue=serving class=inference preemptibility=- leaf=-");
    assertThat(text(plans.get(0)))
        .isEqualTo(
            """
            name: pg-web-5d8f-a-web-5d8f-a-uid
            namespace: ml
            owner: v1 Pod web-5d8f-a (web-5d8f-a-uid)
            minMember: 1
            minSubGroup: -
            queue: serving
            priorityClassName: inference
            preemptibility: -
            topology: -
            labels: {kai.scheduler/queue=serving}
            podSubGroup: -
            """);
  }

  record Case(String name, Map<String, String> podLabels, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String head = "pg-p-p-uid owner=Pod/p minMember=1 minSubGroup=- queue=serving";
    return Stream.of(
        new Case(
            "a pod's priority class label",
            Map.of("priorityClassName", "build"),
            head + " class=build preemptibility=- leaf=-"),
        new Case(
            "a class that does not exist falls to inference",
            Map.of("priorityClassName", "urgent"),
            head + " class=inference preemptibility=- leaf=-"),
        new Case(
            "a pod's preemptibility label",
            Map.of("kai.scheduler/preemptibility", "preemptible"),
            head + " class=inference preemptibility=preemptible leaf=-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    assertThat(summary(GroupingFixtures.planner().plan(input(pod("p", c.podLabels())))))
        .isEqualTo(c.summary());
  }
}
