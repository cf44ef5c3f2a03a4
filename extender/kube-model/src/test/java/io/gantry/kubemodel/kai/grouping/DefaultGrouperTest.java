package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.kai.grouping.WorkloadTypeDefaults.TypeDefault;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The default grouper (StatefulSets, ReplicaSets, other kinds) and the §3.3 precedence every
 * grouper shares: queue, priority class, preemptibility, topology, labels.
 */
class DefaultGrouperTest {
  private static final GroupingConfig WITH_TYPE_DEFAULTS =
      new GroupingConfig(
          QueueAssignment.kaiDefaults(),
          new PriorityClassTable(
              ImmutableMap.of("train", 50, "build", 100, "inference", 125, "batch-low", 10),
              OptionalInt.empty()),
          new WorkloadTypeDefaults(
              ImmutableMap.of(
                  "StatefulSet.apps",
                  new TypeDefault(Optional.of("inference"), Optional.of("Non-Preemptible")),
                  "Widget",
                  new TypeDefault(Optional.of("no-such-class"), Optional.empty()))),
          true);

  record Case(
      String name,
      GroupingConfig config,
      List<OwnerMeta> owners,
      Map<String, String> podLabels,
      Optional<String> podPriorityClass,
      String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static OwnerMeta sts(Map<String, String> labels) {
    return owner("apps/v1", "StatefulSet", "db", labels, Map.of());
  }

  static Stream<Case> cases() {
    GroupingConfig kai = GroupingConfig.kaiDefaults();
    String db = "pg-db-db-uid owner=StatefulSet/db minMember=1 minSubGroup=-";
    OwnerMeta rs =
        owner("apps/v1", "ReplicaSet", "rs", Map.of("priorityClassName", "build"), Map.of());
    OwnerMeta widget = owner("example.com/v1", "Widget", "w");
    return Stream.of(
        new Case(
            "a StatefulSet: one PodGroup, minMember 1, train",
            kai,
            List.of(sts(Map.of())),
            Map.of(),
            Optional.empty(),
            db + " queue=default-queue class=train preemptibility=- leaf=-"),
        new Case(
            "the owner's class label first",
            kai,
            List.of(sts(Map.of("priorityClassName", "build"))),
            Map.of("priorityClassName", "inference"),
            Optional.of("train"),
            db + " queue=default-queue class=build preemptibility=- leaf=-"),
        new Case(
            "then the pod's label",
            kai,
            List.of(sts(Map.of())),
            Map.of("priorityClassName", "inference"),
            Optional.of("build"),
            db + " queue=default-queue class=inference preemptibility=- leaf=-"),
        new Case(
            "then the pod's priorityClassName",
            kai,
            List.of(sts(Map.of())),
            Map.of(),
            Optional.of("build"),
            db + " queue=default-queue class=build preemptibility=- leaf=-"),
        new Case(
            "an owner's label naming no class is passed over for the next owner",
            kai,
            List.of(
                owner(
                    "apps/v1", "StatefulSet", "db", Map.of("priorityClassName", "gold"), Map.of()),
                rs),
            Map.of("priorityClassName", "inference"),
            Optional.empty(),
            "pg-rs-rs-uid owner=ReplicaSet/rs minMember=1 minSubGroup=- queue=default-queue"
                + " class=build preemptibility=- leaf=-"),
        new Case(
            "then the owner type's default, then its preemptibility default",
            WITH_TYPE_DEFAULTS,
            List.of(sts(Map.of())),
            Map.of(),
            Optional.empty(),
            db + " queue=default-queue class=inference preemptibility=non-preemptible leaf=-"),
        new Case(
            "a type default naming no class falls to the kind's default",
            WITH_TYPE_DEFAULTS,
            List.of(widget),
            Map.of(),
            Optional.empty(),
            "pg-w-w-uid owner=Widget/w minMember=1 minSubGroup=- queue=default-queue class=train"
                + " preemptibility=- leaf=-"),
        new Case(
            "the owner's preemptibility before the pod's; an invalid value is passed over",
            kai,
            List.of(sts(Map.of("kai.scheduler/preemptibility", "sometimes"))),
            Map.of("kai.scheduler/preemptibility", "non-preemptible"),
            Optional.empty(),
            db + " queue=default-queue class=train preemptibility=non-preemptible leaf=-"),
        new Case(
            "queue: the owner's label before the pod's",
            kai,
            List.of(sts(Map.of("kai.scheduler/queue", "owner-q"))),
            Map.of("kai.scheduler/queue", "pod-q"),
            Optional.empty(),
            db + " queue=owner-q class=train preemptibility=- leaf=-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    PodMeta pod =
        PodMeta.of("ml", "db-0", "db-0-uid", c.podLabels(), Map.of(), c.podPriorityClass(), false);
    PodGroupPlan plan =
        new PodGroupPlanner(c.config()).plan(GroupingInput.of(c.owners(), WorkloadSpec.PLAIN, pod));

    assertThat(summary(plan)).isEqualTo(c.summary());
  }

  @Test
  void topologyLabelsAndAnnotationsComeFromTheTopOwner() {
    OwnerMeta sts =
        owner(
            "apps/v1",
            "StatefulSet",
            "db",
            Map.of("team", "data"),
            Map.of(
                "kai.scheduler/topology", "dc",
                "kai.scheduler/topology-required-placement", "zone",
                "kai.scheduler/topology-preferred-placement", "rack"));
    PodMeta pod =
        GroupingFixtures.pod("db-0", Map.of("user", "ann", "team", "other"), Map.of("user", "ann"));

    PodGroupPlan plan =
        GroupingFixtures.planner().plan(GroupingInput.ownedBy(sts, WorkloadSpec.PLAIN, pod));

    assertThat(text(plan))
        .isEqualTo(
            """
            name: pg-db-db-uid
            namespace: ml
            owner: apps/v1 StatefulSet db (db-uid)
            minMember: 1
            minSubGroup: -
            queue: default-queue
            priorityClassName: train
            preemptibility: -
            topology: dc/required=zone/preferred=rack
            labels: {team=data, user=ann}
            annotations: {kai.scheduler/topology=dc, kai.scheduler/topology-preferred-placement=rack, kai.scheduler/topology-required-placement=zone, user=ann}
            podSubGroup: -
            """);
  }

  @Test
  void aPlacementLevelWithoutATopologyIsNoConstraint() {
    assertThat(
            DefaultGrouper.topologyConstraint(
                Map.of("kai.scheduler/topology-required-placement", "rack")))
        .isEmpty();
  }
}
