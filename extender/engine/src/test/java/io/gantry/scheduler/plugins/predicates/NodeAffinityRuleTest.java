package io.gantry.scheduler.plugins.predicates;

import static io.gantry.scheduler.model.placement.SelectorOperator.GT;
import static io.gantry.scheduler.model.placement.SelectorOperator.IN;
import static io.gantry.scheduler.model.placement.SelectorOperator.NOT_IN;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.framework.fit.NodeAffinityMismatch;
import io.gantry.scheduler.framework.fit.NodeSelectorMismatch;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeAffinityRuleTest {
  record Case(
      String name,
      PodPlacementRequirements requirements,
      Map<String, String> nodeLabels,
      String nodeName,
      boolean expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Map<String, String> NODE =
      ImmutableMap.of("zone", "a", "gpu", "h100", "gpu-count", "8");

  static Stream<Case> cases() {
    NodeSelectorTerm zoneB = NodeSelectorTerm.ofExpressions(req("zone", IN, "b"));
    NodeSelectorTerm bigNode = NodeSelectorTerm.ofExpressions(req("gpu-count", GT, "4"));
    NodeSelectorTerm notN1 =
        new NodeSelectorTerm(
            ImmutableList.of(), ImmutableList.of(req("metadata.name", NOT_IN, "n1")));
    NodeSelectorTerm empty = new NodeSelectorTerm(ImmutableList.of(), ImmutableList.of());
    return Stream.of(
        new Case("no requirements", PodPlacementRequirements.none(), NODE, "n1", true),
        new Case("nodeSelector matches", selector("zone", "a", "gpu", "h100"), NODE, "n1", true),
        new Case("nodeSelector value differs", selector("gpu", "a100"), NODE, "n1", false),
        new Case("nodeSelector label missing", selector("pool", "x"), NODE, "n1", false),
        new Case("one term of several matching suffices", terms(zoneB, bigNode), NODE, "n1", true),
        new Case("no term matching fails", terms(zoneB), NODE, "n1", false),
        new Case("an empty term matches no node", terms(empty), NODE, "n1", false),
        new Case("an empty term beside a matching one", terms(empty, bigNode), NODE, "n1", true),
        new Case("matchFields metadata.name excludes n1", terms(notN1), NODE, "n1", false),
        new Case("matchFields metadata.name admits n2", terms(notN1), NODE, "n2", true),
        new Case(
            "nodeSelector and terms are ANDed",
            new PodPlacementRequirements(
                ImmutableSortedMap.of("zone", "b"), ImmutableList.of(), affinity(bigNode)),
            NODE,
            "n1",
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(Case c) {
    assertThat(NodeAffinityRule.mismatch(c.requirements(), c.nodeLabels(), c.nodeName()).isEmpty())
        .isEqualTo(c.expected());
  }

  @Test
  void namesTheFirstSelectorLabelThatDiffersElseTheAffinity() {
    NodeSelectorTerm zoneB = NodeSelectorTerm.ofExpressions(req("zone", IN, "b"));

    assertThat(
            List.of(
                NodeAffinityRule.mismatch(
                    selector("gpu", "h100", "pool", "x", "zone", "b"), NODE, "n1"),
                NodeAffinityRule.mismatch(terms(zoneB), NODE, "n1")))
        .containsExactly(
            Optional.of(new NodeSelectorMismatch("pool")), Optional.of(new NodeAffinityMismatch()));
  }

  private static PodPlacementRequirements selector(String... keyValues) {
    ImmutableSortedMap.Builder<String, String> selector = ImmutableSortedMap.naturalOrder();
    for (int i = 0; i < keyValues.length; i += 2) {
      selector.put(keyValues[i], keyValues[i + 1]);
    }
    return new PodPlacementRequirements(selector.build(), ImmutableList.of(), Affinity.none());
  }

  private static PodPlacementRequirements terms(NodeSelectorTerm... terms) {
    return new PodPlacementRequirements(
        ImmutableSortedMap.of(), ImmutableList.of(), affinity(terms));
  }

  private static Affinity affinity(NodeSelectorTerm... terms) {
    return new Affinity(ImmutableList.copyOf(terms), ImmutableList.of(), ImmutableList.of());
  }

  private static NodeSelectorRequirement req(
      String key, SelectorOperator operator, String... values) {
    return NodeSelectorRequirement.of(key, operator, values);
  }
}
