package io.gantry.scheduler.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden text: these must stay byte-identical to kube-scheduler's reasons. */
class PredicateMessagesTest {
  record Case(String name, String actual, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "untolerated taint",
            PredicateMessages.untoleratedTaint(
                new Taint("nvidia.com/gpu", "present", TaintEffect.NO_SCHEDULE)),
            "node(s) had untolerated taint {nvidia.com/gpu: present}"),
        new Case(
            "untolerated taint with empty value",
            PredicateMessages.untoleratedTaint(
                new Taint("node.kubernetes.io/not-ready", "", TaintEffect.NO_EXECUTE)),
            "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"),
        new Case(
            "node affinity",
            PredicateMessages.NODE_AFFINITY_MISMATCH,
            "node(s) didn't match Pod's node affinity/selector"),
        new Case(
            "unschedulable", PredicateMessages.NODE_UNSCHEDULABLE, "node(s) were unschedulable"),
        new Case("not ready", PredicateMessages.NODE_NOT_READY, "node(s) were not ready"),
        new Case(
            "pod affinity",
            PodAffinityFailure.AFFINITY_RULES_NOT_MATCH.message(),
            "node(s) didn't match pod affinity rules"),
        new Case(
            "pod anti-affinity",
            PodAffinityFailure.ANTI_AFFINITY_RULES_NOT_MATCH.message(),
            "node(s) didn't match pod anti-affinity rules"),
        new Case(
            "existing pods' anti-affinity",
            PodAffinityFailure.EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH.message(),
            "node(s) didn't satisfy existing pods anti-affinity rules"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void text(Case c) {
    assertThat(c.actual()).isEqualTo(c.expected());
  }
}
