package io.gantry.scheduler.model.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class K8sSpellingsTest {
  record Case(String name, Function<String, Enum<?>> parser, String spelling, Enum<?> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("NoSchedule", TaintEffect::parse, "NoSchedule", TaintEffect.NO_SCHEDULE),
        new Case(
            "PreferNoSchedule",
            TaintEffect::parse,
            "PreferNoSchedule",
            TaintEffect.PREFER_NO_SCHEDULE),
        new Case("NoExecute", TaintEffect::parse, "NoExecute", TaintEffect.NO_EXECUTE),
        new Case("Equal", TolerationOperator::parse, "Equal", TolerationOperator.EQUAL),
        new Case(
            "empty toleration operator means Equal",
            TolerationOperator::parse,
            "",
            TolerationOperator.EQUAL),
        new Case("Exists", TolerationOperator::parse, "Exists", TolerationOperator.EXISTS),
        new Case("In", SelectorOperator::parse, "In", SelectorOperator.IN),
        new Case("NotIn", SelectorOperator::parse, "NotIn", SelectorOperator.NOT_IN),
        new Case("selector Exists", SelectorOperator::parse, "Exists", SelectorOperator.EXISTS),
        new Case(
            "DoesNotExist",
            SelectorOperator::parse,
            "DoesNotExist",
            SelectorOperator.DOES_NOT_EXIST),
        new Case("Gt", SelectorOperator::parse, "Gt", SelectorOperator.GT),
        new Case("Lt", SelectorOperator::parse, "Lt", SelectorOperator.LT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void parses(Case c) {
    assertThat(c.parser().apply(c.spelling())).isEqualTo(c.expected());
  }

  @Test
  void spellingsRoundTrip() {
    for (TaintEffect effect : TaintEffect.values()) {
      assertThat(TaintEffect.parse(effect.k8sName())).isEqualTo(effect);
    }
    for (TolerationOperator operator : TolerationOperator.values()) {
      assertThat(TolerationOperator.parse(operator.k8sName())).isEqualTo(operator);
    }
    for (SelectorOperator operator : SelectorOperator.values()) {
      assertThat(SelectorOperator.parse(operator.k8sName())).isEqualTo(operator);
    }
  }

  @Test
  void unknownSpellingsNameTheAllowedValues() {
    assertThatThrownBy(() -> TaintEffect.parse("noschedule"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NoSchedule, PreferNoSchedule, NoExecute")
        .hasMessageContaining("'noschedule'");
    assertThatThrownBy(() -> TaintEffect.parse("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TolerationOperator.parse("Equals"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Equal, Exists");
    assertThatThrownBy(() -> SelectorOperator.parse("in"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("In, NotIn, Exists, DoesNotExist, Gt, Lt");
  }
}
