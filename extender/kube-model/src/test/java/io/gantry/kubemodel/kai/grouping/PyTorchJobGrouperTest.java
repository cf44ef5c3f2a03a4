package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.kubeflow;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.replicas;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.template;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.text;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.tree;
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

/** PyTorchJobs: the Kubeflow gang, master and worker SubGroups, worker segments. */
class PyTorchJobGrouperTest {
  private static final OwnerMeta JOB =
      owner(
          "kubeflow.org/v1",
          "PyTorchJob",
          "pytorch-dist-mnist-nccl",
          Map.of("kai.scheduler/queue", "team-a"),
          Map.of());

  record Case(String name, WorkloadSpec.KubeflowSpec spec, PodMeta pod, String plan, String tree) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodMeta master() {
    return pod(
        "pytorch-dist-mnist-nccl-master-0",
        Map.of(
            PyTorchJobGrouper.REPLICA_TYPE_LABEL, "master",
            PyTorchJobGrouper.REPLICA_INDEX_LABEL, "0"));
  }

  static PodMeta worker(int index) {
    return pod(
        "pytorch-dist-mnist-nccl-worker-" + index,
        Map.of(
            PyTorchJobGrouper.REPLICA_TYPE_LABEL,
            "worker",
            PyTorchJobGrouper.REPLICA_INDEX_LABEL,
            Integer.toString(index)));
  }

  static WorkloadSpec.KubeflowSpec withMinAvailable(
      WorkloadSpec.KubeflowSpec spec, int minAvailable) {
    return new WorkloadSpec.KubeflowSpec(
        spec.replicaSpecs(),
        OptionalInt.of(minAvailable),
        spec.elasticMinReplicas(),
        Optional.empty(),
        false);
  }

  static WorkloadSpec.KubeflowSpec segmented(int workers, String segmentSize) {
    return kubeflow(
        ImmutableMap.of(
            "Master",
            replicas(1),
            "Worker",
            new ReplicaSpec(
                OptionalInt.of(workers),
                template(
                    Map.of(
                        "kai.scheduler/segment-size", segmentSize,
                        "kai.scheduler/topology", "dc",
                        "kai.scheduler/segment-topology-required-placement", "rack")))));
  }

  private static final String HEAD =
      """
      name: pg-pytorch-dist-mnist-nccl-pytorch-dist-mnist-nccl-uid
      namespace: ml
      owner: kubeflow.org/v1 PyTorchJob pytorch-dist-mnist-nccl (pytorch-dist-mnist-nccl-uid)
      """;

  static Stream<Case> cases() {
    WorkloadSpec.KubeflowSpec documented =
        kubeflow(ImmutableMap.of("Master", replicas(1), "Worker", replicas(2)));
    WorkloadSpec.KubeflowSpec masterAndThreeWorkers =
        withMinAvailable(
            kubeflow(ImmutableMap.of("Master", replicas(1), "Worker", replicas(3))), 3);
    return Stream.of(
        new Case(
            "KAI's batch-pytorch-job: a gang of the master and both workers",
            documented,
            master(),
            HEAD
                + """
                minMember: 3
                minSubGroup: -
                queue: team-a
                priorityClassName: train
                preemptibility: -
                topology: -
                labels: {kai.scheduler/queue=team-a}
                subGroups:
                  master minMember=1
                  worker minMember=2
                podSubGroup: master
                """,
            "{2}[master(1) worker(2)]"),
        new Case(
            "master and workers with minAvailable: the workers take what the master leaves",
            masterAndThreeWorkers,
            worker(2),
            HEAD
                + """
                minMember: 3
                minSubGroup: -
                queue: team-a
                priorityClassName: train
                preemptibility: -
                topology: -
                labels: {kai.scheduler/queue=team-a}
                subGroups:
                  master minMember=1
                  worker minMember=2
                podSubGroup: worker
                """,
            "{2}[master(1) worker(2)]"),
        new Case(
            "elastic: minReplicas sizes the gang",
            new WorkloadSpec.KubeflowSpec(
                ImmutableMap.of("Worker", replicas(2)),
                OptionalInt.empty(),
                OptionalInt.of(1),
                Optional.empty(),
                false),
            worker(1),
            HEAD
                + """
                minMember: 1
                minSubGroup: -
                queue: team-a
                priorityClassName: train
                preemptibility: -
                topology: -
                labels: {kai.scheduler/queue=team-a}
                subGroups:
                  worker minMember=1
                podSubGroup: worker
                """,
            "{1}[worker(1)]"),
        new Case(
            "segments of 2 over 5 workers: ceil(5/2) leaves, the last holding one pod",
            segmented(5, "2"),
            worker(4),
            HEAD
                + """
                minMember: 6
                minSubGroup: -
                queue: team-a
                priorityClassName: train
                preemptibility: -
                topology: -
                labels: {kai.scheduler/queue=team-a}
                subGroups:
                  master minMember=1
                  worker
                  worker-0 parent=worker minMember=2 topology=dc/required=rack/preferred=-
                  worker-1 parent=worker minMember=2 topology=dc/required=rack/preferred=-
                  worker-2 parent=worker minMember=1 topology=dc/required=rack/preferred=-
                podSubGroup: worker-2
                """,
            "{2}[master(1) worker{3}[worker-0(2) worker-1(2) worker-2(1)]]"),
        new Case(
            "segments with minAvailable: the elastic tail beyond the gang needs no pod",
            withMinAvailable(segmented(6, "2"), 4),
            worker(1),
            HEAD
                + """
                minMember: 4
                minSubGroup: -
                queue: team-a
                priorityClassName: train
                preemptibility: -
                topology: -
                labels: {kai.scheduler/queue=team-a}
                subGroups:
                  master minMember=1
                  worker
                  worker-0 parent=worker minMember=2 topology=dc/required=rack/preferred=-
                  worker-1 parent=worker minMember=1 topology=dc/required=rack/preferred=-
                  worker-2 parent=worker minMember=0 topology=dc/required=rack/preferred=-
                podSubGroup: worker-0
                """,
            "{2}[master(1) worker{3}[worker-0(2) worker-1(1) worker-2(0)]]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    PodGroupPlan plan =
        new PyTorchJobGrouper(GroupingFixtures.defaults())
            .plan(GroupingInput.ownedBy(JOB, c.spec(), c.pod()));

    assertThat(text(plan)).isEqualTo(c.plan());
    assertThat(tree(plan)).isEqualTo(c.tree());
  }

  record Bad(String name, WorkloadSpec.KubeflowSpec spec, PodMeta pod, String field, String msg) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> bad() {
    return Stream.of(
        new Bad(
            "a replica type without replicas",
            kubeflow(ImmutableMap.of("Master", replicas(1), "Worker", replicas(0))),
            master(),
            "spec.pytorchReplicaSpecs.Worker.replicas",
            "the type of the job pytorch-dist-mnist-nccl doesn't allow for 0 Worker pods."
                + " Please fix the replica field"),
        new Bad(
            "a segment size of 1",
            segmented(4, "1"),
            worker(0),
            "spec.pytorchReplicaSpecs.Worker.template.metadata.annotations.kai.scheduler/segment-size",
            "segment size 1 is not valid. It must be greater than 1"),
        new Bad(
            "a segment larger than the workers",
            segmented(4, "5"),
            worker(0),
            "spec.pytorchReplicaSpecs.Worker.template.metadata.annotations.kai.scheduler/segment-size",
            "segment size 5 is greater than the replicas, 4"),
        new Bad(
            "a segmented worker without its index",
            segmented(4, "2"),
            pod("w", Map.of(PyTorchJobGrouper.REPLICA_TYPE_LABEL, "worker")),
            "pod.metadata.labels.training.kubeflow.org/replica-index",
            "replica index label not found on pod w"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void rejects(Bad b) {
    PyTorchJobGrouper grouper = new PyTorchJobGrouper(GroupingFixtures.defaults());
    GroupingInput input = GroupingInput.ownedBy(JOB, b.spec(), b.pod());

    assertThatThrownBy(() -> grouper.plan(input))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field()).isEqualTo(b.field());
              assertThat(e.problem()).isEqualTo(b.msg());
            });
  }
}
