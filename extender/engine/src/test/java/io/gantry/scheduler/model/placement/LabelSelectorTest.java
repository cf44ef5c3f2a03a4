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
import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LabelSelectorTest {
  record Case(String name, LabelSelector selector, Map<String, String> labels, boolean expected) {
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

  private static final Map<String, String> WEB = ImmutableMap.of("app", "web", "tier", "front");

  static Stream<Case> cases() {
    return Stream.of(
        new Case("empty selector matches labels", LabelSelector.everything(), WEB, true),
        new Case(
            "empty selector matches no labels",
            LabelSelector.everything(),
            ImmutableMap.of(),
            true),
        new Case(
            "matchLabels equal",
            LabelSelector.matchLabels(ImmutableMap.of("app", "web")),
            WEB,
            true),
        new Case(
            "matchLabels with a different value",
            LabelSelector.matchLabels(ImmutableMap.of("app", "db")),
            WEB,
            false),
        new Case(
            "matchLabels are ANDed",
            LabelSelector.matchLabels(ImmutableMap.of("app", "web", "tier", "back")),
            WEB,
            false),
        new Case("In", expressions(req("app", IN, "web", "db")), WEB, true),
        new Case("In missing key", expressions(req("zone", IN, "a")), WEB, false),
        new Case("NotIn listed", expressions(req("app", NOT_IN, "web")), WEB, false),
        new Case("NotIn missing key", expressions(req("zone", NOT_IN, "a")), WEB, true),
        new Case("Exists", expressions(req("tier", EXISTS)), WEB, true),
        new Case("DoesNotExist", expressions(req("tier", DOES_NOT_EXIST)), WEB, false),
        new Case(
            "matchLabels and expressions both hold",
            new LabelSelector(
                ImmutableSortedMap.of("app", "web"), ImmutableList.of(req("tier", IN, "front"))),
            WEB,
            true),
        new Case(
            "matchLabels hold but an expression does not",
            new LabelSelector(
                ImmutableSortedMap.of("app", "web"),
                ImmutableList.of(req("tier", EXISTS), req("x", EXISTS))),
            WEB,
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(Case c) {
    assertThat(c.selector().matches(c.labels())).isEqualTo(c.expected());
  }

  static Stream<BadInput> badInputs() {
    return Stream.of(
        new BadInput("Gt is not a label selector operator", () -> req("k", GT, "1"), "operator"),
        new BadInput("Lt is not a label selector operator", () -> req("k", LT, "1"), "operator"),
        new BadInput("In with no values", () -> req("k", IN), "values must be non-empty"),
        new BadInput("Exists with values", () -> req("k", EXISTS, "v"), "values must be empty"),
        new BadInput("empty key", () -> req("", EXISTS), "key is empty"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void rejects(BadInput c) {
    assertThatThrownBy(c.build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("labelSelectorRequirement")
        .hasMessageContaining(c.field());
  }

  private static LabelSelector expressions(LabelSelectorRequirement... requirements) {
    return new LabelSelector(ImmutableSortedMap.of(), ImmutableList.copyOf(requirements));
  }

  private static LabelSelectorRequirement req(
      String key, SelectorOperator operator, String... values) {
    return LabelSelectorRequirement.of(key, operator, values);
  }
}
