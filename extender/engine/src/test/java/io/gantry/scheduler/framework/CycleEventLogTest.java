package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The log keeps committed decisions in commit order and stamps a job's last eviction with the
 * cycle's time only when one of its tasks was evicted.
 */
class CycleEventLogTest {
  private final ClusterSnapshot snapshot =
      Snapshots.of(
          List.of(Nodes.node("n1").gpus(2).build()),
          List.of(Queues.queue("q").build()),
          List.of(
              Jobs.job("v").task(Tasks.task("t").gpus(1).running("n1")).build(),
              Jobs.job("p").task(Tasks.task("t").gpus(1)).build()));
  private final SessionState state = new SessionState(snapshot);
  private final CycleEventLog log = new CycleEventLog(state, snapshot.now());

  @Test
  void anEvictionStampsItsJobAndAPipelineDoesNot() {
    Decision evict = new EvictDecision("ns/v/t", "n1", "evicted", SharedGpuClaimsTest.CAUSE);
    Decision pipeline =
        new PipelineDecision(
            "ns/p/t", "n1", ImmutableList.of(), GpuAmount.ZERO, ImmutableList.of());

    log.recordCommitted(List.of(evict, pipeline));

    assertThat(log.decisions()).containsExactly(evict, pipeline);
    assertThat(state.job("ns/v").lifecycle().lastEvictedAt())
        .isEqualTo(Optional.of(snapshot.now()));
    assertThat(state.job("ns/p").lifecycle().lastEvictedAt()).isEmpty();
  }

  @Test
  void eventsAndStaleMarksAreKeptAsRecorded() {
    Instant since = Instant.parse("2025-12-31T00:00:00Z");

    log.recordEvent("ns/p", "NotReady", "first");
    log.recordEvent("ns/v", "StaleJob", "second");
    log.markStale(state.job("ns/v"), Optional.of(since));

    assertThat(log.events())
        .extracting(e -> e.object() + " " + e.reason() + " " + e.message())
        .containsExactly("ns/p NotReady first", "ns/v StaleJob second");
    assertThat(state.job("ns/v").lifecycle().staleSince()).contains(since);
  }
}
