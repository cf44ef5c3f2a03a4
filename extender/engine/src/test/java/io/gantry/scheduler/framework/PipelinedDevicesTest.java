package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a node promises to pipelined tasks is what it will have once releases end (issue 23): a
 * multi-device fraction takes each device from idle capacity while some is idle, then from
 * releasing capacity; a victim placed back on its own node keeps running only where what it
 * releases is not already promised to another task.
 */
class PipelinedDevicesTest {
  private static final EvictionCause CAUSE = new EvictionCause("preempt", Optional.of("ns/p"), 1);

  @Test
  void aMultiDeviceFractionTakesOneDeviceFromIdleAndTheNextFromReleasing() {
    Session s =
        Sessions.openDefault(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(3).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("old").task(Tasks.task("r").gpus(2).releasing("n1")).build(),
                    Jobs.job("p")
                        .minMember(0)
                        .task(
                            Tasks.task("t0").gpuFraction(0.9).numDevices(2),
                            Tasks.task("t1").gpuFraction(0.9).numDevices(2))
                        .build())));
    NodeState n1 = s.node("n1");

    try (Statement st = s.statement()) {
      st.pipeline(s.task("ns/p/t0"), n1, List.of("n1-gpu0", "n1-gpu1"), GpuAmount.ofHundredths(90));

      assertThat(n1.idle().gpus()).isEqualTo(GpuAmount.ZERO);
      assertThat(n1.releasing().gpus()).isEqualTo(GpuAmount.ofDevices(1));
      // one device is left once the release ends: the second task's two devices do not exist
      assertThat(GpuFit.fits(s.task("ns/p/t1"), n1, s.hooks())).isFalse();
    }
  }

  @Test
  void aVictimWhoseReleasedShareIsPromisedElsewhereWaitsOnTheNewPlace() {
    // g0 and g1 are shared by x, y and the two-device z; evicting all three releases both
    // devices, and p is pipelined onto one of them
    Session s =
        Sessions.openDefault(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(2).build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("v")
                        .minMember(0)
                        .task(
                            Tasks.task("x").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g0"),
                            Tasks.task("y").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g1"),
                            Tasks.task("z")
                                .gpuFraction(0.5)
                                .numDevices(2)
                                .running("n1")
                                .onGpuGroups(0.5, "g0", "g1"))
                        .build(),
                    Jobs.job("p").task(Tasks.task("t").gpuFraction(0.7)).build())));
    NodeState n1 = s.node("n1");
    TaskState x = s.task("ns/v/x");
    TaskState y = s.task("ns/v/y");

    try (Statement st = s.statement()) {
      st.evict(x, "evicted", CAUSE);
      st.evict(y, "evicted", CAUSE);
      st.evict(s.task("ns/v/z"), "evicted", CAUSE);
      st.pipeline(s.task("ns/p/t"), n1, List.of("n1-gpu0"), GpuAmount.ofHundredths(70));
      // y fits its own group still being released; back where it ran, g1 is no longer released
      st.pipeline(y, n1, List.of("g1"), GpuAmount.ofHundredths(50));
      assertThat(y.status()).isEqualTo(TaskStatus.RUNNING);
      // x fits beside y on g1 once z has gone, but g0, where it ran, is what p waits for
      st.pipeline(x, n1, List.of("g1"), GpuAmount.ofHundredths(50));

      assertThat(x.status()).isEqualTo(TaskStatus.PIPELINED);
      assertThat(x.gpuGroups()).containsExactly("g1");
      assertThat(x.evictedFromNode()).contains("n1");
      assertThat(st.evicted(x)).isTrue();
      assertThat(Resources.ZERO.fitsIn(n1.releasing())).as("releasing %s", n1.releasing()).isTrue();
      assertThat(n1.overPromised()).isFalse();
    }
  }
}
