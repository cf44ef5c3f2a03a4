package io.gantry.scheduler.model.placement;

import static io.gantry.scheduler.model.placement.SelectorOperator.DOES_NOT_EXIST;
import static io.gantry.scheduler.model.placement.SelectorOperator.EXISTS;
import static io.gantry.scheduler.model.placement.SelectorOperator.GT;
import static io.gantry.scheduler.model.placement.SelectorOperator.IN;
import static io.gantry.scheduler.model.placement.SelectorOperator.LT;
import static io.gantry.scheduler.model.placement.SelectorOperator.NOT_IN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeSelectorRequirementTest {
  record Case(
      String name,
      NodeSelectorRequirement requirement,
      Map<String, String> labels,
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

  private static final Map<String, String> GPU_NODE =
      ImmutableMap.of("gpu-type", "h100", "gpu-count", "8", "memory-gb", "-1", "odd", "٥");

  static Stream<Case> cases() {
    return Stream.of(
        new Case("In matches a listed value", req("gpu-type", IN, "a100", "h100"), GPU_NODE, true),
        new Case("In rejects an unlisted value", req("gpu-type", IN, "a100"), GPU_NODE, false),
        new Case("In rejects a missing key", req("zone", IN, "a"), GPU_NODE, false),
        new Case("NotIn rejects a listed value", req("gpu-type", NOT_IN, "h100"), GPU_NODE, false),
        new Case("NotIn matches an unlisted value", req("gpu-type", NOT_IN, "t4"), GPU_NODE, true),
        new Case("NotIn matches a missing key", req("zone", NOT_IN, "a"), GPU_NODE, true),
        new Case("Exists matches a present key", req("gpu-type", EXISTS), GPU_NODE, true),
        new Case("Exists rejects a missing key", req("zone", EXISTS), GPU_NODE, false),
        new Case("DoesNotExist matches a missing key", req("zone", DOES_NOT_EXIST), GPU_NODE, true),
        new Case(
            "DoesNotExist rejects a present key", req("gpu-type", DOES_NOT_EXIST), GPU_NODE, false),
        new Case("Gt matches a larger integer", req("gpu-count", GT, "4"), GPU_NODE, true),
        new Case("Gt rejects an equal integer", req("gpu-count", GT, "8"), GPU_NODE, false),
        new Case("Gt rejects a smaller integer", req("gpu-count", GT, "16"), GPU_NODE, false),
        new Case(
            "Gt compares numerically, not as text", req("gpu-count", GT, "10"), GPU_NODE, false),
        new Case("Gt accepts a signed bound", req("gpu-count", GT, "+7"), GPU_NODE, true),
        new Case("Gt rejects a missing key", req("zone", GT, "0"), GPU_NODE, false),
        new Case("Gt rejects a non-integer label", req("gpu-type", GT, "0"), GPU_NODE, false),
        new Case("Gt rejects a label of non-ASCII digits", req("odd", GT, "0"), GPU_NODE, false),
        new Case("Lt matches a smaller integer", req("gpu-count", LT, "9"), GPU_NODE, true),
        new Case("Lt rejects an equal integer", req("gpu-count", LT, "8"), GPU_NODE, false),
        new Case("Lt handles negative labels", req("memory-gb", LT, "0"), GPU_NODE, true),
        new Case("Lt rejects a missing key", req("zone", LT, "100"), GPU_NODE, false),
        new Case(
            "Lt rejects a label that overflows a long",
            req("big", LT, "0"),
            ImmutableMap.of("big", "-99999999999999999999"),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(Case c) {
    assertThat(c.requirement().matches(c.labels())).isEqualTo(c.expected());
  }

  static Stream<BadInput> badInputs() {
    return Stream.of(
        new BadInput("In with no values", () -> req("k", IN), "values must be non-empty"),
        new BadInput("NotIn with no values", () -> req("k", NOT_IN), "values must be non-empty"),
        new BadInput("Exists with values", () -> req("k", EXISTS, "v"), "values must be empty"),
        new BadInput(
            "DoesNotExist with values",
            () -> req("k", DOES_NOT_EXIST, "v"),
            "values must be empty"),
        new BadInput("Gt with no values", () -> req("k", GT), "values must have exactly one"),
        new BadInput(
            "Lt with two values", () -> req("k", LT, "1", "2"), "values must have exactly one"),
        new BadInput(
            "Gt with a non-integer", () -> req("k", GT, "abc"), "values must be an integer"),
        new BadInput("Lt with a decimal", () -> req("k", LT, "1.5"), "values must be an integer"),
        new BadInput("empty key", () -> req("", EXISTS), "key is empty"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void rejects(BadInput c) {
    assertThatThrownBy(c.build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeSelectorRequirement")
        .hasMessageContaining(c.field());
  }

  @Test
  void copiesValues() {
    List<String> values = new ArrayList<>(List.of("a"));
    NodeSelectorRequirement requirement = new NodeSelectorRequirement("k", IN, values);
    values.add("b");
    assertThat(requirement.values()).isEqualTo(ImmutableList.of("a"));
  }

  private static NodeSelectorRequirement req(
      String key, SelectorOperator operator, String... values) {
    return NodeSelectorRequirement.of(key, operator, values);
  }
}
