package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.NodeResourceTypeMismatch;
import io.gantry.scheduler.framework.fit.NodeResourceTypeMismatch.Rule;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.NodeMigMode;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KAI's node_info PredicateByNodeResourcesType: which kind of GPU request a node takes, by its MIG
 * mode (the mig-enabled label or MIG resources, then the strategy label) and the legacy MIG pods on
 * it, and KAI's sentence for each refusal.
 */
class NodeResourceTypeRuleTest {
  private static final String MIG_1G = "nvidia.com/mig-1g.10gb";

  record Case(
      String name,
      NodeInfo node,
      List<Tasks.Builder> placed,
      Tasks.Builder task,
      Optional<Rule> expected,
      String sentence) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    NodeInfo plain = Nodes.node("n1").gpus(2).build();
    NodeInfo singleLabelOnly =
        Nodes.node("n1").gpus(2).label(NodeMigMode.STRATEGY_LABEL, "single").build();
    NodeInfo single =
        Nodes.node("n1")
            .gpus(2)
            .label(NodeMigMode.ENABLED_LABEL, "true")
            .label(NodeMigMode.STRATEGY_LABEL, "single")
            .build();
    NodeInfo mixed =
        Nodes.node("n1").extended(MIG_1G, 2).label(NodeMigMode.STRATEGY_LABEL, "mixed").build();
    NodeInfo dynamicMixed =
        Nodes.node("n1")
            .label(NodeMigMode.ENABLED_LABEL, "true")
            .label(NodeMigMode.STRATEGY_LABEL, "mixed")
            .build();
    return Stream.of(
        new Case(
            "a legacy MIG pod is placed nowhere",
            mixed,
            List.of(),
            Tasks.task("t").legacyMig(MIG_1G, 1),
            Optional.of(Rule.LEGACY_MIG_POD),
            "Legacy MIG jobs cannot be scheduled on node n1"),
        new Case(
            "a CPU-only pod fits a mixed node",
            mixed,
            List.of(),
            Tasks.task("t").cpu("1"),
            Optional.empty(),
            ""),
        new Case(
            "a MIG pod needs a MIG node",
            plain,
            List.of(),
            Tasks.task("t").extended(MIG_1G, 1),
            Optional.of(Rule.MIG_ON_NON_MIG_NODE),
            "MIG job cannot be scheduled on non-MIG node"),
        new Case(
            "a MIG pod fits a mixed node",
            mixed,
            List.of(),
            Tasks.task("t").extended(MIG_1G, 1),
            Optional.empty(),
            ""),
        new Case(
            "a MIG pod does not join legacy MIG pods",
            mixed,
            List.of(
                Tasks.task("b-old").legacyMig(MIG_1G, 1).running("n1"),
                Tasks.task("a-old").legacyMig(MIG_1G, 1).running("n1")),
            Tasks.task("t").extended(MIG_1G, 1),
            Optional.of(Rule.LEGACY_MIG_PODS_ON_NODE),
            "MIG job cannot be scheduled on node with legacy MIG jobs: <[ns/busy-a-old ns/busy-b-old]>"),
        new Case(
            "a fraction does not run on a single-strategy MIG node",
            single,
            List.of(),
            Tasks.task("t").gpuFraction(0.1),
            Optional.of(Rule.SINGLE_STRATEGY_WHOLE_GPUS_ONLY),
            "only whole gpu jobs can run on a node with MigStrategy='single'"),
        new Case(
            "a whole GPU runs on a single-strategy MIG node",
            single,
            List.of(),
            Tasks.task("t").gpus(1),
            Optional.empty(),
            ""),
        new Case(
            "the strategy label alone makes no MIG node: a fraction runs there",
            singleLabelOnly,
            List.of(),
            Tasks.task("t").gpuFraction(0.1),
            Optional.empty(),
            ""),
        new Case(
            "a whole GPU does not run on a mixed node",
            dynamicMixed,
            List.of(),
            Tasks.task("t").gpus(1),
            Optional.of(Rule.MIXED_STRATEGY_MIG_ONLY),
            "non MIG jobs cant run on a node with MigStrategy='mixed'"),
        new Case(
            "a mig-enabled label of false makes no MIG node",
            Nodes.node("n1")
                .gpus(2)
                .label(NodeMigMode.ENABLED_LABEL, "false")
                .label(NodeMigMode.STRATEGY_LABEL, "mixed")
                .build(),
            List.of(),
            Tasks.task("t").gpus(1),
            Optional.empty(),
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void takesTheKindsOfGpuItOffers(Case c) {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(c.node()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("busy")
                        .minMember(0)
                        .task(c.placed().toArray(Tasks.Builder[]::new))
                        .build(),
                    Jobs.job("p").minMember(0).task(c.task()).build())));

    Optional<NodeResourceTypeMismatch> mismatch =
        NodeResourceTypeRule.mismatch(session.task("ns/p/t").info(), session.node("n1"));

    assertThat(mismatch.map(NodeResourceTypeMismatch::rule)).isEqualTo(c.expected());
    assertThat(mismatch.map(FitMessages::sentence).orElse("")).isEqualTo(c.sentence());
    if (c.expected().isPresent() && c.expected().get() != Rule.LEGACY_MIG_PODS_ON_NODE) {
      assertThat(mismatch.get().legacyMigPods()).isEqualTo(ImmutableList.of());
    }
  }
}
