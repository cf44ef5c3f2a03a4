package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.text;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** LeaderWorkerSets: a PodGroup per group, leader and workers, segments. */
class LeaderWorkerSetGrouperTest {
  private static final OwnerMeta LWS =
      owner("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "vllm");

  static PodMeta pod(int group, int worker, boolean scheduled) {
    String name = worker == 0 ? "vllm-" + group : "vllm-" + group + "-" + worker;
    return PodMeta.of(
        "ml",
        name,
        name + "-uid",
        Map.of(
            LeaderWorkerSetGrouper.GROUP_INDEX_LABEL, Integer.toString(group),
            LeaderWorkerSetGrouper.WORKER_INDEX_LABEL, Integer.toString(worker)),
        Map.of(),
        Optional.empty(),
        scheduled);
  }

  static WorkloadSpec.LeaderWorkerSetSpec lws(
      int size, Optional<String> startup, OptionalInt segment, Optional<String> policy) {
    return new WorkloadSpec.LeaderWorkerSetSpec(
        OptionalInt.of(size), startup, segment, policy, Optional.of(PodTemplateMeta.EMPTY));
  }

  static PodGroupPlan plan(WorkloadSpec.LeaderWorkerSetSpec spec, PodMeta pod) {
    return GroupingFixtures.planner().plan(GroupingInput.ownedBy(LWS, spec, pod));
  }

  @Test
  void anLwsWithSegmentSize2() {
    WorkloadSpec.LeaderWorkerSetSpec spec =
        lws(4, Optional.empty(), OptionalInt.of(2), Optional.empty());

    PodGroupPlan plan = plan(spec, pod(1, 3, false));

    assertThat(text(plan))
        .isEqualTo(
            """
            name: pg-vllm-vllm-uid-group-1
            namespace: ml
            owner: leaderworkerset.x-k8s.io/v1 LeaderWorkerSet vllm (vllm-uid)
            minMember: 4
            minSubGroup: -
            queue: default-queue
            priorityClassName: train
            preemptibility: -
            topology: -
            subGroups:
              segment-0 minSubGroup=2
              segment-1 minMember=2
              leader parent=segment-0 minMember=1
              workers parent=segment-0 minMember=1
            podSubGroup: segment-1
            """);
    assertThat(tree(plan)).isEqualTo("{2}[segment-0{2}[leader(1) workers(1)] segment-1(2)]");
    assertThat(plan(spec, pod(1, 0, false)).podSubGroup()).contains("leader");
    assertThat(plan(spec, pod(1, 1, false)).podSubGroup()).contains("workers");
    assertThat(plan(spec, pod(1, 2, false)).podSubGroup()).contains("segment-1");
  }

  record Case(
      String name,
      WorkloadSpec.LeaderWorkerSetSpec spec,
      PodMeta pod,
      String summary,
      String tree) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String head = "pg-vllm-vllm-uid-group-0 owner=LeaderWorkerSet/vllm";
    String tail = " queue=default-queue class=train preemptibility=-";
    return Stream.of(
        new Case(
            "no segments: leader and workers",
            lws(4, Optional.empty(), OptionalInt.empty(), Optional.empty()),
            pod(0, 2, false),
            head + " minMember=4 minSubGroup=-" + tail + " leaf=workers",
            "{2}[leader(1) workers(3)]"),
        new Case(
            "a group of one is its leader",
            lws(1, Optional.empty(), OptionalInt.empty(), Optional.empty()),
            pod(0, 0, false),
            head + " minMember=1 minSubGroup=-" + tail + " leaf=leader",
            "{1}[leader(1)]"),
        new Case(
            "LeaderReady: an unscheduled leader needs only itself",
            lws(4, Optional.of("LeaderReady"), OptionalInt.empty(), Optional.empty()),
            pod(0, 0, false),
            head + " minMember=1 minSubGroup=-" + tail + " leaf=leader",
            "{1}[leader(1)]"),
        new Case(
            "LeaderReady: a scheduled leader needs the group",
            lws(4, Optional.of("LeaderReady"), OptionalInt.empty(), Optional.empty()),
            pod(0, 0, true),
            head + " minMember=4 minSubGroup=-" + tail + " leaf=leader",
            "{2}[leader(1) workers(3)]"),
        new Case(
            "workers dividing evenly: the leader is an extra member of the first segment",
            lws(5, Optional.empty(), OptionalInt.of(2), Optional.empty()),
            pod(0, 2, false),
            head + " minMember=5 minSubGroup=-" + tail + " leaf=workers",
            "{2}[segment-0{2}[leader(1) workers(2)] segment-1(2)]"),
        new Case(
            "one even segment holds every worker once",
            lws(3, Optional.empty(), OptionalInt.of(2), Optional.empty()),
            pod(0, 2, false),
            head + " minMember=3 minSubGroup=-" + tail + " leaf=workers",
            "{1}[segment-0{2}[leader(1) workers(2)]]"),
        new Case(
            "LeaderExcluded: the leader beside the segments",
            lws(5, Optional.empty(), OptionalInt.of(2), Optional.of("LeaderExcluded")),
            pod(0, 3, false),
            head + " minMember=5 minSubGroup=-" + tail + " leaf=segment-1",
            "{3}[leader(1) segment-0(2) segment-1(2)]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    PodGroupPlan plan = plan(c.spec(), c.pod());

    assertThat(summary(plan)).isEqualTo(c.summary());
    assertThat(tree(plan)).isEqualTo(c.tree());
  }

  record Bad(String name, WorkloadSpec.LeaderWorkerSetSpec spec, String field, String msg) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> bad() {
    return Stream.of(
        new Bad(
            "a segment of 1",
            lws(4, Optional.empty(), OptionalInt.of(1), Optional.empty()),
            "spec.leaderWorkerTemplate.subGroupPolicy.subGroupSize",
            "segmentSize 1 is not valid. It must be greater than 1"),
        new Bad(
            "a segment larger than the group",
            lws(4, Optional.empty(), OptionalInt.of(5), Optional.empty()),
            "spec.leaderWorkerTemplate.subGroupPolicy.subGroupSize",
            "segmentSize 5 is greater than replicasSize 4"),
        new Bad(
            "LeaderExcluded with uneven workers",
            lws(4, Optional.empty(), OptionalInt.of(2), Optional.of("LeaderExcluded")),
            "spec.leaderWorkerTemplate.subGroupPolicy.subGroupPolicyType",
            "replicasSize 4 is not divisible by segmentSize 2. LeaderExcluded policy is only"
                + " supported when replicasSize is divisible by segmentSize."),
        new Bad(
            "an unknown startup policy",
            lws(4, Optional.of("Sometime"), OptionalInt.empty(), Optional.empty()),
            "spec.startupPolicy",
            "unknown startupPolicy: Sometime"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void rejects(Bad b) {
    assertThatThrownBy(() -> plan(b.spec(), pod(0, 1, false)))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field()).isEqualTo(b.field());
              assertThat(e.problem()).isEqualTo(b.msg());
            });
  }

  @Test
  void segmentsTakeTheSegmentTopology() {
    OwnerMeta annotated =
        owner(
            "leaderworkerset.x-k8s.io/v1",
            "LeaderWorkerSet",
            "vllm",
            Map.of(),
            Map.of("kai.scheduler/topology", "dc"));
    WorkloadSpec.LeaderWorkerSetSpec spec =
        new WorkloadSpec.LeaderWorkerSetSpec(
            OptionalInt.of(4),
            Optional.empty(),
            OptionalInt.empty(),
            Optional.empty(),
            Optional.of(
                GroupingFixtures.template(
                    Map.of(
                        "kai.scheduler/segment-size", "2",
                        "kai.scheduler/segment-topology-required-placement", "rack"))));

    PodGroupPlan plan =
        GroupingFixtures.planner().plan(GroupingInput.ownedBy(annotated, spec, pod(0, 1, false)));

    TopologyConstraint rack = new TopologyConstraint("dc", Optional.of("rack"), Optional.empty());
    assertThat(plan.subGroups().get(0).topologyConstraint()).contains(rack);
    assertThat(plan.subGroups().get(1).topologyConstraint()).contains(rack);
    assertThat(plan.subGroups().get(2).topologyConstraint()).isEmpty();
    assertThat(plan.topologyConstraint())
        .contains(new TopologyConstraint("dc", Optional.empty(), Optional.empty()));
  }
}
