package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** kai-reference §6 gpuspread: a whole free GPU scores 1, a shared GPU 1 − used portion. */
class GpuSpreadPluginTest {
  record Case(String name, GpuCandidate candidate, double expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("whole free GPU", new GpuCandidate(Optional.empty(), GpuAmount.ZERO, true), 1),
        new Case(
            "whole GPU being released",
            new GpuCandidate(Optional.empty(), GpuAmount.ZERO, false),
            1),
        new Case("shared GPU three quarters used", shared("g", 0.75), 0.25),
        new Case("shared GPU a quarter used", shared("g", 0.25), 0.75));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scoresDevices(Case c) {
    Session session = GpuScorerFixture.session(new GpuSpreadPlugin());

    assertThat(
            new GpuSpreadPlugin()
                .scoreGpu(session.task("ns/p/t"), session.node("n1"), c.candidate()))
        .isCloseTo(c.expected(), within(1e-9));
  }

  @Test
  void aFractionPrefersAFreeDevice() {
    Session session = GpuScorerFixture.session(0.25, new GpuSpreadPlugin());

    GpuFit.Selection selection =
        GpuFit.select(session.task("ns/p/t"), session.node("n1"), session.hooks()).orElseThrow();

    assertThat(selection.gpuGroups()).containsExactly("n1-gpu0");
  }

  @Test
  void withoutAFreeDeviceAFractionJoinsTheEmptiestSharedGpu() {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(2).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("busy")
                        .minMember(0)
                        .task(
                            Tasks.task("half")
                                .gpuFraction(0.5)
                                .running("n1")
                                .onGpuGroups(0.5, "g-half"),
                            Tasks.task("quarter")
                                .gpuFraction(0.25)
                                .running("n1")
                                .onGpuGroups(0.25, "g-quarter"))
                        .build(),
                    Jobs.job("p").task(Tasks.task("t").gpuFraction(0.25)).build())),
            new GpuSpreadPlugin());

    GpuFit.Selection selection =
        GpuFit.select(session.task("ns/p/t"), session.node("n1"), session.hooks()).orElseThrow();

    assertThat(selection.gpuGroups()).containsExactly("g-quarter");
  }

  private static GpuCandidate shared(String id, double used) {
    return new GpuCandidate(Optional.of(id), GpuAmount.ofDevicesRoundedHalfUp(used), true);
  }
}
