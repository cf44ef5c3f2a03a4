package io.gantry.scheduler.framework;

import static io.gantry.gpusharing.GpuAmount.ofHundredths;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kai-reference §5.2 and §7 in a session: a pending memory request counts at its portion of the
 * smallest node's GPU for fair share and of the largest for limit checks; a placed one counts its
 * actual portion.
 */
class SessionQuotaGpusTest {
  @Test
  void fairShareUsesTheSmallestNodeMemoryAndLimitChecksTheLargest() {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(
                    Nodes.node("small").gpus(1).gpuMemoryMib(40_960).build(),
                    Nodes.node("large").gpus(1).gpuMemoryMib(81_920).build(),
                    Nodes.node("cpu").gpuMemoryMib(1_000).build()),
                List.of(Queues.queue("q").build()),
                List.of(Jobs.job("p").task(Tasks.task("t").gpuMemoryMib(20_480)).build())));
    TaskState task = session.task("ns/p/t");

    assertThat(session.minNodeGpuMemoryMib()).isEqualTo(40_960);
    assertThat(session.maxNodeGpuMemoryMib()).isEqualTo(81_920);
    assertThat(session.quotaGpus(task)).isEqualTo(ofHundredths(51));
    assertThat(session.limitCheckGpus(List.of(task))).isEqualTo(ofHundredths(26));
  }

  @Test
  void aPendingRequestLargerThanTheSmallestDeviceCountsAtMostOneGpuPerDevice() {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(
                    Nodes.node("small").gpus(1).gpuMemoryMib(40_960).build(),
                    Nodes.node("large").gpus(2).gpuMemoryMib(81_920).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("p")
                        .task(Tasks.task("t").gpuMemoryMib(60_000).numDevices(2))
                        .build())));
    TaskState task = session.task("ns/p/t");

    assertThat(List.of(session.quotaGpus(task), session.limitCheckGpus(List.of(task))))
        .containsExactly(ofHundredths(200), ofHundredths(148));
  }

  @Test
  void aPlacedSharedTaskCountsItsActualPortion() {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(2).gpuMemoryMib(81_920).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("p")
                        .task(
                            Tasks.task("t")
                                .gpuMemoryMib(40_960)
                                .numDevices(2)
                                .running("n1")
                                .onGpuGroups(0.51, "g0", "g1"))
                        .build())));

    assertThat(session.quotaGpus(session.task("ns/p/t"))).isEqualTo(ofHundredths(102));
  }
}
