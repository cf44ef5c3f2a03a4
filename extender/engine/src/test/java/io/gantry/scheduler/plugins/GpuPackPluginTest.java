package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.Session;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** kai-reference §6 gpupack: a shared GPU scores its used portion, a whole free GPU 0. */
class GpuPackPluginTest {
  record Case(String name, GpuCandidate candidate, double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("shared GPU three quarters used", shared("g", 0.75), 0.75),
        new Case("shared GPU a quarter used", shared("g", 0.25), 0.25),
        new Case("whole free GPU", new GpuCandidate(Optional.empty(), GpuAmount.ZERO, true), 0),
        new Case(
            "whole GPU being released",
            new GpuCandidate(Optional.empty(), GpuAmount.ZERO, false),
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scoresDevices(Case c) {
    Session session = GpuScorerFixture.session(new GpuPackPlugin());

    assertThat(
            new GpuPackPlugin().scoreGpu(session.task("ns/p/t"), session.node("n1"), c.candidate()))
        .isEqualTo(c.expected());
  }

  record SelectCase(String name, double fraction, String expectedGroup) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<SelectCase> selections() {
    return Stream.of(
        new SelectCase("a small fraction joins the fullest shared GPU", 0.25, "g-half"),
        new SelectCase(
            "a fraction that exactly fills the fullest shared GPU joins it", 0.5, "g-half"),
        new SelectCase(
            "a fraction too big for the fullest shared GPU takes the next", 0.6, "g-quarter"),
        new SelectCase("a fraction no shared GPU can take opens a free device", 0.8, "n1-gpu0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("selections")
  void selectsTheFullestSharedGpuThatFits(SelectCase c) {
    Session session = GpuScorerFixture.session(c.fraction(), new GpuPackPlugin());

    GpuFit.Selection selection =
        GpuFit.select(session.task("ns/p/t"), session.node("n1"), session.hooks()).orElseThrow();

    assertThat(selection.gpuGroups()).containsExactly(c.expectedGroup());
  }

  private static GpuCandidate shared(String id, double used) {
    return new GpuCandidate(Optional.of(id), GpuAmount.ofDevicesRoundedHalfUp(used), true);
  }
}
