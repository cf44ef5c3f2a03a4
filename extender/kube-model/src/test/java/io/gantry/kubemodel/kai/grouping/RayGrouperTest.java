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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Ray clusters: the head and each worker group a SubGroup, the gang their minimums. */
class RayGrouperTest {
  private static final RayWorkerGroup CPU =
      new RayWorkerGroup(
          Optional.of("cpu"),
          OptionalInt.of(2),
          OptionalInt.empty(),
          OptionalInt.empty(),
          false,
          PodTemplateMeta.EMPTY);
  private static final RayWorkerGroup GPU =
      new RayWorkerGroup(
          Optional.of("gpu"),
          OptionalInt.of(4),
          OptionalInt.of(1),
          OptionalInt.of(2),
          false,
          template(
              Map.of(
                  "kai.scheduler/topology", "dc",
                  "kai.scheduler/topology-required-placement", "rack")));

  static WorkloadSpec.RaySpec cluster(boolean autoscaling, RayWorkerGroup... groups) {
    return new WorkloadSpec.RaySpec(
        Optional.of(PodTemplateMeta.EMPTY), ImmutableList.copyOf(groups), autoscaling);
  }

  static PodGroupPlan plan(
      String kind, Map<String, String> labels, WorkloadSpec.RaySpec spec, String group) {
    OwnerMeta top = owner("ray.io/v1", kind, "ray", labels, Map.of());
    PodMeta pod = pod("ray-" + group + "-0", Map.of(RayGrouper.GROUP_LABEL, group));
    return GroupingFixtures.planner().plan(GroupingInput.ownedBy(top, spec, pod));
  }

  @Test
  void aRayClusterWithTwoWorkerGroups() {
    PodGroupPlan plan = plan("RayCluster", Map.of(), cluster(false, CPU, GPU), "gpu");

    assertThat(text(plan))
        .isEqualTo(
            """
            name: pg-ray-ray-uid
            namespace: ml
            owner: ray.io/v1 RayCluster ray (ray-uid)
            minMember: 5
            minSubGroup: -
            queue: default-queue
            priorityClassName: train
            preemptibility: -
            topology: -
            subGroups:
              headgroup minMember=1
              cpu minMember=2
              gpu minMember=2 topology=dc/required=rack/preferred=-
            podSubGroup: gpu
            """);
    assertThat(tree(plan)).isEqualTo("{3}[headgroup(1) cpu(2) gpu(2)]");
  }

  record Case(
      String name,
      String kind,
      Map<String, String> labels,
      WorkloadSpec.RaySpec spec,
      String group,
      String summary,
      String tree) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    RayWorkerGroup unnamed =
        new RayWorkerGroup(
            Optional.empty(),
            OptionalInt.of(3),
            OptionalInt.empty(),
            OptionalInt.empty(),
            false,
            PodTemplateMeta.EMPTY);
    RayWorkerGroup suspended =
        new RayWorkerGroup(
            Optional.of("off"),
            OptionalInt.of(3),
            OptionalInt.empty(),
            OptionalInt.empty(),
            true,
            PodTemplateMeta.EMPTY);
    RayWorkerGroup empty =
        new RayWorkerGroup(
            Optional.of("none"),
            OptionalInt.empty(),
            OptionalInt.empty(),
            OptionalInt.empty(),
            false,
            PodTemplateMeta.EMPTY);
    return Stream.of(
        new Case(
            "autoscaling counts only minReplicas",
            "RayCluster",
            Map.of(),
            cluster(true, CPU, GPU),
            "headgroup",
            "pg-ray-ray-uid owner=RayCluster/ray minMember=3 minSubGroup=- queue=default-queue"
                + " class=train preemptibility=- leaf=headgroup",
            "{3}[headgroup(1) cpu(0) gpu(2)]"),
        new Case(
            "unnamed, suspended and empty groups",
            "RayCluster",
            Map.of(),
            cluster(false, suspended, unnamed, empty),
            "worker-group-1",
            "pg-ray-ray-uid owner=RayCluster/ray minMember=4 minSubGroup=- queue=default-queue"
                + " class=train preemptibility=- leaf=worker-group-1",
            "{2}[headgroup(1) worker-group-1(3)]"),
        new Case(
            "a RayJob's ray.io/priority-class-name is taken as written",
            "RayJob",
            Map.of("ray.io/priority-class-name", "build"),
            cluster(false, CPU),
            "cpu",
            "pg-ray-ray-uid owner=RayJob/ray minMember=3 minSubGroup=- queue=default-queue"
                + " class=build preemptibility=- leaf=cpu",
            "{2}[headgroup(1) cpu(2)]"),
        new Case(
            "a RayService, and a pod of no group",
            "RayService",
            Map.of(),
            cluster(false, CPU),
            "other",
            "pg-ray-ray-uid owner=RayService/ray minMember=3 minSubGroup=- queue=default-queue"
                + " class=train preemptibility=- leaf=-",
            "{2}[headgroup(1) cpu(2)]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    PodGroupPlan plan = plan(c.kind(), c.labels(), c.spec(), c.group());

    assertThat(summary(plan)).isEqualTo(c.summary());
    assertThat(tree(plan)).isEqualTo(c.tree());
  }

  @Test
  void aRayJobIsEvictedBySuspending() {
    assertThat(plan("RayJob", Map.of(), cluster(false, CPU), "cpu").annotations())
        .containsEntry("kai.scheduler/eviction-strategy", "suspend");
    assertThat(plan("RayCluster", Map.of(), cluster(false, CPU), "cpu").annotations()).isEmpty();
  }

  @Test
  void moreMinReplicasThanReplicasIsAnError() {
    RayWorkerGroup bad =
        new RayWorkerGroup(
            Optional.of("bad"),
            OptionalInt.of(1),
            OptionalInt.of(2),
            OptionalInt.empty(),
            false,
            PodTemplateMeta.EMPTY);

    assertThatThrownBy(() -> plan("RayJob", Map.of(), cluster(false, CPU, bad), "cpu"))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field())
                  .isEqualTo("spec.rayClusterSpec.workerGroupSpecs[1].minReplicas");
              assertThat(e.problem())
                  .isEqualTo(
                      "ray-cluster replicas for a workerGroupsSpec can't be less than minReplicas."
                          + " Given 1 replicas and 2 minReplicas. Please fix the replicas field"
                          + " for group number 1");
            });
  }

  @Test
  void aPlacementLevelWithoutATopologyIsAnError() {
    RayWorkerGroup bad =
        new RayWorkerGroup(
            Optional.of("bad"),
            OptionalInt.of(1),
            OptionalInt.empty(),
            OptionalInt.empty(),
            false,
            template(Map.of("kai.scheduler/topology-required-placement", "rack")));

    assertThatThrownBy(() -> plan("RayCluster", Map.of(), cluster(false, bad), "bad"))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e ->
                assertThat(e.field())
                    .isEqualTo(
                        "spec.workerGroupSpecs[0].template.metadata.annotations.kai.scheduler/topology"));
  }
}
