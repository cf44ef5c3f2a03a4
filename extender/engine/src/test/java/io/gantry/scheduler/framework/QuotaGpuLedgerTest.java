package io.gantry.scheduler.framework;

import static io.gantry.scheduler.testing.Dra.claim;
import static io.gantry.scheduler.testing.Dra.exactly;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ledger's accounting as {@link TaskMoves} drives it: a task's own GPUs come and go with it,
 * and a shared DRA GPU claim's devices come with the first holder on a node and go with the last.
 */
class QuotaGpuLedgerTest {
  private static JobInfo sharer(String job) {
    return Jobs.job(job).queue("q").task(Tasks.task("t").gpus(1).claim("gpu", "shared")).build();
  }

  private final ClusterSnapshot snapshot =
      SharedGpuClaimsTest.withClaims(
          List.of(Nodes.node("n1").gpus(4).build()),
          List.of(Queues.queue("q").build()),
          List.of(sharer("a"), sharer("b")),
          List.of(claim("shared", exactly("gpu", 2))));
  private final SessionState state = new SessionState(snapshot);
  private final QuotaGpuLedger ledger = new QuotaGpuLedger(snapshot);

  @Test
  void theFirstHolderOfASharedClaimAddsItsDevicesAndTheLastToLetGoFreesThem() {
    TaskState a = state.task("ns/a/t");
    TaskState b = state.task("ns/b/t");

    assertThat(
            List.of(
                ledger.hold(a, "n1"),
                ledger.hold(b, "n1"),
                ledger.release(a, "n1"),
                ledger.release(b, "n1")))
        .containsExactly(
            GpuAmount.ofDevices(3),
            GpuAmount.ofDevices(1),
            GpuAmount.ofDevices(1),
            GpuAmount.ofDevices(3));
  }

  @Test
  void heldGpusCountEachClaimOncePerNode() {
    TaskState a = state.task("ns/a/t");
    TaskState b = state.task("ns/b/t");

    assertThat(ledger.heldGpus(List.of(a, b))).isEqualTo(GpuAmount.ofDevices(4));
    assertThat(ledger.heldGpus(List.of(a))).isEqualTo(GpuAmount.ofDevices(3));
  }
}
