package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.template;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.text;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** JobSets: a parent SubGroup per replicatedJob, a leaf per replica, InOrder needing one. */
class JobSetGrouperTest {
  private static final ReplicatedJob DRIVER =
      new ReplicatedJob("driver", OptionalInt.empty(), OptionalInt.empty(), PodTemplateMeta.EMPTY);
  private static final ReplicatedJob WORKERS =
      new ReplicatedJob("workers", OptionalInt.of(2), OptionalInt.of(4), PodTemplateMeta.EMPTY);

  static PodMeta pod(String replicatedJob, int jobIndex) {
    return GroupingFixtures.pod(
        "train-" + replicatedJob + "-" + jobIndex + "-0",
        Map.of(
            JobSetGrouper.REPLICATED_JOB_LABEL,
            replicatedJob,
            JobSetGrouper.JOB_INDEX_LABEL,
            Integer.toString(jobIndex)));
  }

  static PodGroupPlan plan(
      Map<String, String> annotations, WorkloadSpec.JobSetSpec spec, PodMeta pod) {
    OwnerMeta jobSet = owner("jobset.x-k8s.io/v1alpha2", "JobSet", "train", Map.of(), annotations);
    return GroupingFixtures.planner().plan(GroupingInput.ownedBy(jobSet, spec, pod));
  }

  static WorkloadSpec.JobSetSpec spec(Optional<String> order, ReplicatedJob... jobs) {
    return new WorkloadSpec.JobSetSpec(ImmutableList.copyOf(jobs), order);
  }

  @Test
  void twoReplicatedJobsInOrderNeedOneToStart() {
    PodGroupPlan plan =
        plan(Map.of(), spec(Optional.of("InOrder"), DRIVER, WORKERS), pod("workers", 1));

    assertThat(text(plan))
        .isEqualTo(
            """
            name: pg-train-train-uid
            namespace: ml
            owner: jobset.x-k8s.io/v1alpha2 JobSet train (train-uid)
            minMember: -
            minSubGroup: 1
            queue: default-queue
            priorityClassName: train
            preemptibility: -
            topology: -
            subGroups:
              driver minSubGroup=1
              driver-replica-0 parent=driver minMember=1
              workers minSubGroup=2
              workers-replica-0 parent=workers minMember=4
              workers-replica-1 parent=workers minMember=4
            podSubGroup: workers-replica-1
            """);
    assertThat(tree(plan))
        .isEqualTo(
            "{1}[driver{1}[driver-replica-0(1)]"
                + " workers{2}[workers-replica-0(4) workers-replica-1(4)]]");
  }

  record Case(
      String name, Map<String, String> annotations, WorkloadSpec.JobSetSpec spec, String tree) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    ReplicatedJob annotated =
        new ReplicatedJob(
            "workers",
            OptionalInt.of(1),
            OptionalInt.of(8),
            template(
                Map.of(
                    "kai.scheduler/batch-min-member", "6",
                    "kai.scheduler/topology", "dc",
                    "kai.scheduler/topology-required-placement", "rack")));
    return Stream.of(
        new Case(
            "AnyOrder (the default) needs every replicatedJob",
            Map.of(),
            spec(Optional.empty(), DRIVER, WORKERS),
            "{2}[driver{1}[driver-replica-0(1)]"
                + " workers{2}[workers-replica-0(4) workers-replica-1(4)]]"),
        new Case(
            "the JobSet's batch-min-member sets the root, at most every replicatedJob",
            Map.of("kai.scheduler/batch-min-member", "5"),
            spec(Optional.of("InOrder"), DRIVER, WORKERS),
            "{2}[driver{1}[driver-replica-0(1)]"
                + " workers{2}[workers-replica-0(4) workers-replica-1(4)]]"),
        new Case(
            "a template's batch-min-member sets its leaves",
            Map.of(),
            spec(Optional.empty(), annotated),
            "{1}[workers{1}[workers-replica-0(6)]]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    String leaf = c.spec().replicatedJobs().get(0).name();
    assertThat(tree(plan(c.annotations(), c.spec(), pod(leaf, 0)))).isEqualTo(c.tree());
  }

  @Test
  void aLeafTakesItsTemplatesTopology() {
    ReplicatedJob annotated =
        new ReplicatedJob(
            "workers",
            OptionalInt.of(1),
            OptionalInt.of(2),
            template(
                Map.of(
                    "kai.scheduler/topology", "dc",
                    "kai.scheduler/topology-preferred-placement", "rack")));
    PodGroupPlan plan = plan(Map.of(), spec(Optional.empty(), annotated), pod("workers", 0));

    assertThat(plan.subGroups().get(1).topologyConstraint())
        .contains(new TopologyConstraint("dc", Optional.empty(), Optional.of("rack")));
    assertThat(summary(plan))
        .isEqualTo(
            "pg-train-train-uid owner=JobSet/train minMember=- minSubGroup=1"
                + " queue=default-queue class=train preemptibility=- leaf=workers-replica-0");
  }

  record Bad(String name, Map<String, String> annotations, PodMeta pod, String field, String msg) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> bad() {
    return Stream.of(
        new Bad(
            "a pod without its replicatedJob",
            Map.of(),
            GroupingFixtures.pod("p", Map.of()),
            "pod.metadata.labels.jobset.sigs.k8s.io/replicatedjob-name",
            "pod ml/p missing required label \"jobset.sigs.k8s.io/replicatedjob-name\""),
        new Bad(
            "a pod of a replica that does not exist",
            Map.of(),
            pod("workers", 7),
            "pod.metadata.labels.jobset.sigs.k8s.io/job-index",
            "leaf subgroup \"workers-replica-7\" not found for pod ml/train-workers-7-0"),
        new Bad(
            "a batch-min-member of 0",
            Map.of("kai.scheduler/batch-min-member", "0"),
            pod("workers", 0),
            "metadata.annotations.kai.scheduler/batch-min-member",
            "invalid kai.scheduler/batch-min-member annotation: value 0 must be >= 1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void rejects(Bad b) {
    assertThatThrownBy(
            () -> plan(b.annotations(), spec(Optional.empty(), DRIVER, WORKERS), b.pod()))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field()).isEqualTo(b.field());
              assertThat(e.problem()).isEqualTo(b.msg());
            });
  }
}
