package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The dispatch by kind, and the pods the podgrouper leaves alone. */
class PodGroupPlannerTest {
  @Test
  void everyKindHasAGrouper() {
    PodGroupPlanner planner = GroupingFixtures.planner();
    assertThat(Arrays.stream(WorkloadKind.values()).map(planner::grouper)).doesNotContainNull();
  }

  @Test
  void aSpecOfTheWrongTypeIsAProgrammingError() {
    GroupingInput input =
        GroupingInput.ownedBy(
            owner("kubeflow.org/v1", "PyTorchJob", "pt"), WorkloadSpec.PLAIN, pod("p", Map.of()));

    assertThatThrownBy(() -> GroupingFixtures.planner().plan(input))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a PyTorchJob is grouped from a KubeflowSpec, got a Plain");
  }

  @Test
  void skipAnnotationsAndNamedPodGroupsAreLeftAlone() {
    OwnerMeta job =
        owner("batch/v1", "Job", "j", Map.of(), Map.of("kai.scheduler/skip-podgrouper", "true"));
    PodMeta plain = pod("p", Map.of());
    PodMeta skipped = pod("p", Map.of(), Map.of("kai.scheduler/skip-podgrouper", "true"));
    PodMeta named = pod("p", Map.of(), Map.of("pod-group-name", "mine"));

    assertThat(PodGroupPlanner.leavesAlone(GroupingInput.barePod(plain))).isFalse();
    assertThat(PodGroupPlanner.leavesAlone(GroupingInput.barePod(skipped))).isTrue();
    assertThat(PodGroupPlanner.leavesAlone(GroupingInput.barePod(named))).isTrue();
    assertThat(PodGroupPlanner.leavesAlone(GroupingInput.ownedBy(job, WorkloadSpec.PLAIN, plain)))
        .isTrue();
    assertThat(
            PodGroupPlanner.leavesAlone(
                GroupingInput.ownedBy(owner("batch/v1", "Job", "j"), WorkloadSpec.PLAIN, named)))
        .isFalse();
  }
}
