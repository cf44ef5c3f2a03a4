package io.gantry.scheduler.model.placement;

import static io.gantry.scheduler.model.placement.SelectorOperator.EXISTS;
import static io.gantry.scheduler.model.placement.SelectorOperator.IN;
import static io.gantry.scheduler.model.placement.SelectorOperator.NOT_IN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeSelectorTermTest {
  record Case(
      String name,
      NodeSelectorTerm term,
      Map<String, String> labels,
      String nodeName,
      boolean expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  record BadInput(String name, ThrowingCallable build, String field) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Map<String, String> LABELS = ImmutableMap.of("zone", "a", "gpu", "h100");

  static Stream<Case> cases() {
    return Stream.of(
        new Case("an empty term matches nothing", term(exprs(), fields()), LABELS, "n1", false),
        new Case(
            "all expressions hold",
            term(exprs(req("zone", IN, "a"), req("gpu", EXISTS)), fields()),
            LABELS,
            "n1",
            true),
        new Case(
            "expressions are ANDed",
            term(exprs(req("zone", IN, "a"), req("gpu", IN, "a100")), fields()),
            LABELS,
            "n1",
            false),
        new Case(
            "metadata.name In matches the node name",
            term(exprs(), fields(req("metadata.name", IN, "n1"))),
            LABELS,
            "n1",
            true),
        new Case(
            "metadata.name In rejects another node",
            term(exprs(), fields(req("metadata.name", IN, "n1"))),
            LABELS,
            "n2",
            false),
        new Case(
            "metadata.name NotIn excludes the named node",
            term(exprs(), fields(req("metadata.name", NOT_IN, "n1"))),
            LABELS,
            "n1",
            false),
        new Case(
            "metadata.name NotIn admits other nodes",
            term(exprs(), fields(req("metadata.name", NOT_IN, "n1"))),
            LABELS,
            "n2",
            true),
        new Case(
            "matchFields are not node labels",
            term(exprs(), fields(req("metadata.name", IN, "n1"))),
            ImmutableMap.of("metadata.name", "n1"),
            "n2",
            false),
        new Case(
            "expressions and fields must both hold",
            term(exprs(req("zone", IN, "b")), fields(req("metadata.name", IN, "n1"))),
            LABELS,
            "n1",
            false),
        new Case(
            "expressions and fields both holding match",
            term(exprs(req("zone", IN, "a")), fields(req("metadata.name", IN, "n1"))),
            LABELS,
            "n1",
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(Case c) {
    assertThat(c.term().matches(c.labels(), c.nodeName())).isEqualTo(c.expected());
  }

  static Stream<BadInput> badInputs() {
    return Stream.of(
        new BadInput(
            "field other than metadata.name",
            () -> term(exprs(), fields(req("metadata.namespace", IN, "x"))),
            "matchFields key"),
        new BadInput(
            "field with Exists",
            () -> term(exprs(), fields(req("metadata.name", EXISTS))),
            "matchFields operator"),
        new BadInput(
            "field with two values",
            () -> term(exprs(), fields(req("metadata.name", IN, "n1", "n2"))),
            "matchFields values"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void rejects(BadInput c) {
    assertThatThrownBy(c.build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(c.field());
  }

  private static NodeSelectorTerm term(
      ImmutableList<NodeSelectorRequirement> expressions,
      ImmutableList<NodeSelectorRequirement> fields) {
    return new NodeSelectorTerm(expressions, fields);
  }

  private static ImmutableList<NodeSelectorRequirement> exprs(
      NodeSelectorRequirement... requirements) {
    return ImmutableList.copyOf(requirements);
  }

  private static ImmutableList<NodeSelectorRequirement> fields(
      NodeSelectorRequirement... requirements) {
    return ImmutableList.copyOf(requirements);
  }

  private static NodeSelectorRequirement req(
      String key, SelectorOperator operator, String... values) {
    return NodeSelectorRequirement.of(key, operator, values);
  }
}
