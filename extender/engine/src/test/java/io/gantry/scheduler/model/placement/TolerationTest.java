package io.gantry.scheduler.model.placement;

import static io.gantry.scheduler.model.placement.TaintEffect.NO_EXECUTE;
import static io.gantry.scheduler.model.placement.TaintEffect.NO_SCHEDULE;
import static io.gantry.scheduler.model.placement.TaintEffect.PREFER_NO_SCHEDULE;
import static io.gantry.scheduler.model.placement.TolerationOperator.EQUAL;
import static io.gantry.scheduler.model.placement.TolerationOperator.EXISTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TolerationTest {
  record Case(String name, Toleration toleration, Taint taint, boolean expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Toleration toleration(
      String key, TolerationOperator operator, String value, TaintEffect effect) {
    return new Toleration(key, operator, value, Optional.ofNullable(effect));
  }

  static Stream<Case> cases() {
    Taint gpuTrueNoSchedule = new Taint("gpu", "true", NO_SCHEDULE);
    return Stream.of(
        new Case(
            "Equal with same key, value and effect tolerates",
            toleration("gpu", EQUAL, "true", NO_SCHEDULE),
            gpuTrueNoSchedule,
            true),
        new Case(
            "Equal with a different value does not tolerate",
            toleration("gpu", EQUAL, "false", NO_SCHEDULE),
            gpuTrueNoSchedule,
            false),
        new Case(
            "Equal with a different key does not tolerate",
            toleration("tpu", EQUAL, "true", NO_SCHEDULE),
            gpuTrueNoSchedule,
            false),
        new Case(
            "keys compare case-sensitively",
            toleration("GPU", EQUAL, "true", NO_SCHEDULE),
            gpuTrueNoSchedule,
            false),
        new Case(
            "Equal with empty value tolerates a taint with empty value",
            toleration("dedicated", EQUAL, "", NO_EXECUTE),
            new Taint("dedicated", "", NO_EXECUTE),
            true),
        new Case(
            "Equal with empty value does not tolerate a taint with a value",
            toleration("dedicated", EQUAL, "", NO_EXECUTE),
            new Taint("dedicated", "ml", NO_EXECUTE),
            false),
        new Case(
            "Exists with the key tolerates any value",
            toleration("gpu", EXISTS, "", NO_SCHEDULE),
            gpuTrueNoSchedule,
            true),
        new Case(
            "Exists ignores its own value",
            toleration("gpu", EXISTS, "something-else", NO_SCHEDULE),
            gpuTrueNoSchedule,
            true),
        new Case(
            "Exists with a different key does not tolerate",
            toleration("tpu", EXISTS, "", NO_SCHEDULE),
            gpuTrueNoSchedule,
            false),
        new Case(
            "empty key with Exists and no effect tolerates every taint",
            Toleration.everything(),
            new Taint("node.kubernetes.io/not-ready", "", NO_EXECUTE),
            true),
        new Case(
            "empty key with Exists and an effect tolerates any key with that effect",
            toleration("", EXISTS, "", NO_SCHEDULE),
            new Taint("anything", "x", NO_SCHEDULE),
            true),
        new Case(
            "empty key with Exists and an effect does not tolerate another effect",
            toleration("", EXISTS, "", NO_SCHEDULE),
            new Taint("anything", "x", NO_EXECUTE),
            false),
        new Case(
            "effect-less toleration tolerates NoSchedule",
            toleration("gpu", EQUAL, "true", null),
            gpuTrueNoSchedule,
            true),
        new Case(
            "effect-less toleration tolerates PreferNoSchedule",
            toleration("gpu", EQUAL, "true", null),
            new Taint("gpu", "true", PREFER_NO_SCHEDULE),
            true),
        new Case(
            "effect-less toleration tolerates NoExecute",
            toleration("gpu", EXISTS, "", null),
            new Taint("gpu", "true", NO_EXECUTE),
            true),
        new Case(
            "toleration for NoExecute does not tolerate NoSchedule",
            toleration("gpu", EQUAL, "true", NO_EXECUTE),
            gpuTrueNoSchedule,
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tolerates(Case c) {
    assertThat(c.toleration().tolerates(c.taint())).isEqualTo(c.expected());
  }

  @Test
  void emptyKeyRequiresExists() {
    assertThatThrownBy(() -> toleration("", EQUAL, "x", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key")
        .hasMessageContaining("Exists");
  }

  @Test
  void taintRequiresKey() {
    assertThatThrownBy(() -> new Taint("", "v", NO_SCHEDULE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key");
  }

  @Test
  void taintToStringUsesKubectlForm() {
    assertThat(new Taint("gpu", "true", NO_SCHEDULE)).hasToString("gpu=true:NoSchedule");
    assertThat(new Taint("dedicated", "", NO_EXECUTE)).hasToString("dedicated:NoExecute");
  }
}
