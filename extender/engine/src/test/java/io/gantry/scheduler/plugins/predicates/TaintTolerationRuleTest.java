package io.gantry.scheduler.plugins.predicates;

import static io.gantry.scheduler.model.placement.TaintEffect.NO_EXECUTE;
import static io.gantry.scheduler.model.placement.TaintEffect.NO_SCHEDULE;
import static io.gantry.scheduler.model.placement.TaintEffect.PREFER_NO_SCHEDULE;
import static io.gantry.scheduler.model.placement.TolerationOperator.EQUAL;
import static io.gantry.scheduler.model.placement.TolerationOperator.EXISTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TaintTolerationRuleTest {
  record Case(
      String name, List<Taint> taints, List<Toleration> tolerations, Optional<Taint> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Taint GPU = new Taint("nvidia.com/gpu", "present", NO_SCHEDULE);
  private static final Taint NOT_READY = new Taint("node.kubernetes.io/not-ready", "", NO_EXECUTE);
  private static final Taint SPOT = new Taint("spot", "true", PREFER_NO_SCHEDULE);

  static Stream<Case> cases() {
    return Stream.of(
        new Case("untainted node", taints(), tolerations(), Optional.empty()),
        new Case("NoSchedule taint blocks", taints(GPU), tolerations(), Optional.of(GPU)),
        new Case(
            "NoExecute taint blocks", taints(NOT_READY), tolerations(), Optional.of(NOT_READY)),
        new Case("PreferNoSchedule never blocks", taints(SPOT), tolerations(), Optional.empty()),
        new Case(
            "PreferNoSchedule is skipped when reporting",
            taints(SPOT, GPU),
            tolerations(),
            Optional.of(GPU)),
        new Case(
            "the first untolerated taint in node order is reported",
            taints(NOT_READY, GPU),
            tolerations(),
            Optional.of(NOT_READY)),
        new Case(
            "a tolerated taint is passed over",
            taints(GPU, NOT_READY),
            tolerations(toleration("nvidia.com/gpu", EXISTS, "", null)),
            Optional.of(NOT_READY)),
        new Case(
            "every blocking taint tolerated",
            taints(GPU, NOT_READY, SPOT),
            tolerations(
                toleration("nvidia.com/gpu", EQUAL, "present", NO_SCHEDULE),
                toleration("node.kubernetes.io/not-ready", EXISTS, "", NO_EXECUTE)),
            Optional.empty()),
        new Case(
            "empty key Exists tolerates everything",
            taints(GPU, NOT_READY),
            tolerations(Toleration.everything()),
            Optional.empty()),
        new Case(
            "toleration for the wrong effect does not help",
            taints(GPU),
            tolerations(toleration("nvidia.com/gpu", EXISTS, "", NO_EXECUTE)),
            Optional.of(GPU)),
        new Case(
            "effect-less toleration covers both blocking effects of its key",
            taints(new Taint("k", "v", NO_SCHEDULE), new Taint("k", "v", NO_EXECUTE)),
            tolerations(toleration("k", EQUAL, "v", null)),
            Optional.empty()),
        new Case(
            "Equal toleration with a different value does not help",
            taints(GPU),
            tolerations(toleration("nvidia.com/gpu", EQUAL, "absent", null)),
            Optional.of(GPU)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void firstUntolerated(Case c) {
    assertThat(TaintTolerationRule.firstUntolerated(c.taints(), c.tolerations()))
        .isEqualTo(c.expected());
  }

  private static List<Taint> taints(Taint... taints) {
    return ImmutableList.copyOf(taints);
  }

  private static List<Toleration> tolerations(Toleration... tolerations) {
    return ImmutableList.copyOf(tolerations);
  }

  private static Toleration toleration(
      String key, TolerationOperator operator, String value, TaintEffect effect) {
    return new Toleration(key, operator, value, Optional.ofNullable(effect));
  }
}
