package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.kai.grouping.WorkloadTypeDefaults.TypeDefault;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Argo Workflows and Kubeflow TrainJobs: grouped by the next owner down. */
class SkipTopOwnerGrouperTest {
  private static final OwnerMeta WORKFLOW =
      owner(
          "argoproj.io/v1alpha1",
          "Workflow",
          "wf",
          Map.of("kai.scheduler/queue", "pipelines", "priorityClassName", "build"),
          Map.of("kai.scheduler/topology", "dc"));
  private static final OwnerMeta TRAIN_JOB =
      owner(
          "trainer.kubeflow.org/v1alpha1",
          "TrainJob",
          "llm",
          Map.of("kai.scheduler/queue", "research"),
          Map.of());
  private static final OwnerMeta JOB_SET = owner("jobset.x-k8s.io/v1alpha2", "JobSet", "llm");
  private static final OwnerMeta JOB = owner("batch/v1", "Job", "llm-node-0");

  record Case(String name, GroupingConfig config, GroupingInput input, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    GroupingConfig kai = GroupingConfig.kaiDefaults();
    GroupingConfig typeDefaults =
        new GroupingConfig(
            QueueAssignment.kaiDefaults(),
            PriorityClassTable.KAI_DEFAULTS,
            new WorkloadTypeDefaults(
                ImmutableMap.of(
                    "TrainJob.trainer.kubeflow.org",
                    new TypeDefault(Optional.of("inference"), Optional.of("non-preemptible")))),
            true);
    PodMeta step = pod("wf-step-1", Map.of());
    GroupingInput workflowPod =
        GroupingInput.ownedBy(
            WORKFLOW,
            new WorkloadSpec.SkipTopOwnerSpec(Optional.empty(), WorkloadSpec.PLAIN),
            step);
    WorkloadSpec.JobSetSpec jobSetSpec =
        new WorkloadSpec.JobSetSpec(
            ImmutableList.of(
                new ReplicatedJob(
                    "node", OptionalInt.of(2), OptionalInt.of(1), PodTemplateMeta.EMPTY)),
            Optional.empty());
    GroupingInput trainJobPod =
        GroupingInput.of(
            List.of(JOB, JOB_SET, TRAIN_JOB),
            new WorkloadSpec.SkipTopOwnerSpec(Optional.of(JOB_SET), jobSetSpec),
            pod(
                "llm-node-0-0",
                Map.of(
                    JobSetGrouper.REPLICATED_JOB_LABEL, "node",
                    JobSetGrouper.JOB_INDEX_LABEL, "0")));
    return Stream.of(
        new Case(
            "an Argo Workflow's pod is grouped as a pod, with the Workflow's labels",
            kai,
            workflowPod,
            "pg-wf-step-1-wf-step-1-uid owner=Pod/wf-step-1 minMember=1 minSubGroup=-"
                + " queue=pipelines class=build preemptibility=- leaf=-"),
        new Case(
            "a TrainJob's pod is grouped by its JobSet, with the TrainJob's queue",
            kai,
            trainJobPod,
            "pg-llm-llm-uid owner=JobSet/llm minMember=- minSubGroup=1 queue=research class=train"
                + " preemptibility=- leaf=node-replica-0"),
        new Case(
            "the TrainJob type's defaults pass down",
            typeDefaults,
            trainJobPod,
            "pg-llm-llm-uid owner=JobSet/llm minMember=- minSubGroup=1 queue=research"
                + " class=inference preemptibility=non-preemptible leaf=node-replica-0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    assertThat(summary(new PodGroupPlanner(c.config()).plan(c.input()))).isEqualTo(c.summary());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theSkippedOwnersAnnotationsReachTheNextOwner(Case c) {
    PodGroupPlan plan = new PodGroupPlanner(c.config()).plan(c.input());
    if (c.input().topOwner().equals(WORKFLOW)) {
      assertThat(plan.topologyConstraint())
          .contains(new TopologyConstraint("dc", Optional.empty(), Optional.empty()));
    } else {
      assertThat(plan.topologyConstraint()).isEmpty();
    }
  }
}
