package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import java.util.List;
import org.junit.jupiter.api.Test;

/** KAI's scheduling signatures: a job no easier than one that failed alike is not tried. */
class FailedJobsTest {
  private final Session s =
      Sessions.openDefault(
          Snapshots.of(
              List.of(Nodes.node("n1").gpus(8).build()),
              List.of(Queues.queue("q").build()),
              List.of(
                  Jobs.job("two").queue("q").tasks(2, t -> t.gpus(2)).build(),
                  Jobs.job("bigger").queue("q").tasks(2, t -> t.gpus(3)).build(),
                  Jobs.job("smaller").queue("q").tasks(2, t -> t.gpus(1)).build(),
                  Jobs.job("fewer").queue("q").tasks(1, t -> t.gpus(2)).build(),
                  Jobs.job("pinned")
                      .queue("q")
                      .tasks(2, t -> t.gpus(1).nodeSelector("zone", "z1"))
                      .build(),
                  Jobs.job("urgent").queue("q").priority(75).tasks(2, t -> t.gpus(3)).build())));

  @Test
  void aJobNoEasierThanOneThatFailedIsSkipped() {
    FailedJobs failed = new FailedJobs();
    failed.recordFailure(s.job("ns/two"));

    assertThat(failed.worthTrying(s.job("ns/bigger"))).isFalse();
    assertThat(failed.worthTrying(s.job("ns/two"))).isFalse();
    assertThat(failed.worthTrying(s.job("ns/smaller"))).isTrue();
    assertThat(failed.worthTrying(s.job("ns/fewer"))).isTrue();
  }

  @Test
  void otherConstraintsOrPriorityAreAnotherSignature() {
    FailedJobs failed = new FailedJobs();
    failed.recordFailure(s.job("ns/smaller"));

    assertThat(failed.worthTrying(s.job("ns/pinned"))).isTrue();
    assertThat(failed.worthTrying(s.job("ns/urgent"))).isTrue();
  }

  @Test
  void theSmallestFailureRepresentsItsSignature() {
    FailedJobs failed = new FailedJobs();
    failed.recordFailure(s.job("ns/bigger"));
    failed.recordFailure(s.job("ns/two"));

    assertThat(failed.worthTrying(s.job("ns/bigger"))).isFalse();
    assertThat(failed.worthTrying(s.job("ns/smaller"))).isTrue();
  }
}
