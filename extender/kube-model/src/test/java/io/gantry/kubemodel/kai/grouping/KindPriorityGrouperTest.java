package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Notebooks (build) and SPOTRequests (inference): the default rules with their own class. */
class KindPriorityGrouperTest {
  record Case(String name, OwnerMeta owner, Map<String, String> podLabels, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a Notebook is build",
            owner("kubeflow.org/v1beta1", "Notebook", "nb"),
            Map.of(),
            "pg-nb-nb-uid owner=Notebook/nb minMember=1 minSubGroup=- queue=default-queue"
                + " class=build preemptibility=- leaf=-"),
        new Case(
            "a Notebook's pod may name another class",
            owner("kubeflow.org/v1beta1", "Notebook", "nb"),
            Map.of("priorityClassName", "train"),
            "pg-nb-nb-uid owner=Notebook/nb minMember=1 minSubGroup=- queue=default-queue"
                + " class=train preemptibility=- leaf=-"),
        new Case(
            "a SPOTRequest is inference",
            owner("egx.nvidia.io/v1", "SPOTRequest", "spot"),
            Map.of(),
            "pg-spot-spot-uid owner=SPOTRequest/spot minMember=1 minSubGroup=-"
                + " queue=default-queue class=inference preemptibility=- leaf=-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    GroupingInput input =
        GroupingInput.ownedBy(c.owner(), WorkloadSpec.PLAIN, pod("p", c.podLabels()));

    assertThat(summary(GroupingFixtures.planner().plan(input))).isEqualTo(c.summary());
  }
}
