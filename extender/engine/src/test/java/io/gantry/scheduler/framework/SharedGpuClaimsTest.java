package io.gantry.scheduler.framework;

import static io.gantry.scheduler.testing.Dra.claim;
import static io.gantry.scheduler.testing.Dra.exactly;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.plugins.ProportionArgs;
import io.gantry.scheduler.plugins.ProportionPlugin;
import io.gantry.scheduler.testing.Dra;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * kai-reference §8 in a session: a DRA GPU claim shared by several pods of a queue on a node counts
 * once in the queue, from the first pod that holds it to the last that lets it go.
 */
class SharedGpuClaimsTest {
  static final EvictionCause CAUSE = new EvictionCause("reclaim", Optional.of("ns/urgent"), 1);

  /** A snapshot of the given jobs with one DRA GPU class and the given claims. */
  static ClusterSnapshot withClaims(
      List<NodeInfo> nodes,
      List<QueueInfo> queues,
      List<JobInfo> jobs,
      List<ResourceClaim> claims) {
    ClusterSnapshot s = Snapshots.of(nodes, queues, jobs);
    return new ClusterSnapshot(
        s.now(),
        s.nodes(),
        s.queues(),
        s.jobs(),
        s.queueUsage(),
        s.topologies(),
        Dra.resources(List.of(Dra.gpuClass()), List.of(), claims));
  }

  private static JobInfo sharer(String job, Tasks.Builder task) {
    return Jobs.job(job).queue("q").task(task.cpu("1").claim("gpu", "shared")).build();
  }

  /** Two pending pods of one job that share the 2-GPU claim {@code fresh}, which nobody holds. */
  private static JobInfo freshClaimGang() {
    return Jobs.job("gang")
        .queue("q")
        .task(Tasks.task("t0").cpu("1").claim("gpu", "fresh"))
        .task(Tasks.task("t1").cpu("1").claim("gpu", "fresh"))
        .build();
  }

  private final ProportionPlugin proportion = new ProportionPlugin(ProportionArgs.DEFAULTS);

  private Session twoRunningSharers(JobInfo... more) {
    List<JobInfo> jobs =
        new ArrayList<>(
            List.of(
                sharer("a", Tasks.task("t").running("n1")),
                sharer("b", Tasks.task("t").running("n1"))));
    jobs.addAll(List.of(more));
    return Sessions.open(
        withClaims(
            List.of(Nodes.node("n1").cpu("8").build(), Nodes.node("n2").cpu("8").build()),
            List.of(Queues.queue("q").build()),
            jobs,
            List.of(claim("shared", exactly("gpu", 1)), claim("fresh", exactly("gpu", 2)))),
        proportion);
  }

  private double queueGpus() {
    return proportion.queues().get("q").allocated(ResourceKind.GPU);
  }

  @Test
  void runningPodsThatShareAClaimCountItOnceAtSessionOpen() {
    Session s = twoRunningSharers();
    TaskState a = s.task("ns/a/t");
    TaskState b = s.task("ns/b/t");

    assertThat(queueGpus()).isEqualTo(1);
    assertThat(List.of(s.quotaGpus(a), s.quotaGpus(List.of(a, b)), s.heldGpus(List.of(a, b))))
        .containsExactly(GpuAmount.ZERO, GpuAmount.ofDevices(1), GpuAmount.ofDevices(1));
  }

  @Test
  void aPendingPodJoiningAHeldClaimNeedsNoGpusAndTwoOnAFreshClaimNeedItOnce() {
    Session s = twoRunningSharers(sharer("c", Tasks.task("t")), freshClaimGang());
    List<TaskState> gang = List.of(s.task("ns/gang/t0"), s.task("ns/gang/t1"));

    assertThat(
            List.of(
                s.quotaGpus(s.task("ns/c/t")),
                s.limitCheckGpus(List.of(s.task("ns/c/t"))),
                s.quotaGpus(gang),
                s.limitCheckGpus(gang)))
        .containsExactly(
            GpuAmount.ZERO, GpuAmount.ZERO, GpuAmount.ofDevices(2), GpuAmount.ofDevices(2));
  }

  @Test
  void evictingOneSharerFreesNothingAndEvictingBothFreesTheGpuOnce() {
    Session s = twoRunningSharers();
    TaskState a = s.task("ns/a/t");
    TaskState b = s.task("ns/b/t");
    QuotaGpuTally victims = s.quotaGpuTally();

    assertThat(List.of(victims.add(a), victims.add(b)))
        .containsExactly(GpuAmount.ZERO, GpuAmount.ofDevices(1));
    try (Statement st = s.statement()) {
      st.evict(a, "evicted", CAUSE);
      assertThat(queueGpus()).isEqualTo(1);
      assertThat(s.quotaGpus(b)).isEqualTo(GpuAmount.ofDevices(1));

      st.evict(b, "evicted", CAUSE);
      assertThat(queueGpus()).isZero();
    }
    assertThat(queueGpus()).isEqualTo(1);
  }

  @Test
  void aGangThatRollsBackLeavesTheCountsAsTheyWere() {
    Session s = twoRunningSharers(sharer("c", Tasks.task("t")), freshClaimGang());
    var before = s.sharedClaims().holdersView();

    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/c/t"), s.node("n1"), List.of(), GpuAmount.ZERO);
      st.allocate(s.task("ns/gang/t0"), s.node("n2"), List.of(), GpuAmount.ZERO);
      st.allocate(s.task("ns/gang/t1"), s.node("n2"), List.of(), GpuAmount.ZERO);
      assertThat(queueGpus()).isEqualTo(3);
    }

    assertThat(queueGpus()).isEqualTo(1);
    assertThat(s.sharedClaims().holdersView()).isEqualTo(before);
  }

  @Test
  void aJobStopsNeedingASharedClaimOnceAnotherJobsPodHoldsIt() {
    Session s =
        Sessions.open(
            withClaims(
                List.of(Nodes.node("n1").cpu("8").build()),
                List.of(Queues.queue("q").gpu(1, 1, -1).build()),
                List.of(sharer("a", Tasks.task("t")), sharer("b", Tasks.task("t"))),
                List.of(claim("shared", exactly("gpu", 1)))),
            proportion);
    JobState b = s.job("ns/b");

    // fair share 1 GPU: b fits with its claim's GPU before a holds it, and after
    assertThat(proportion.canReclaimResources(b)).isTrue();
    try (Statement st = s.statement()) {
      st.allocate(s.task("ns/a/t"), s.node("n1"), List.of(), GpuAmount.ZERO);

      assertThat(proportion.canReclaimResources(b)).isTrue();
    }
  }

  @Test
  void aClaimUsedOnTwoNodesCountsOncePerNode() {
    Sessions.open(
        withClaims(
            List.of(Nodes.node("n1").cpu("8").build(), Nodes.node("n2").cpu("8").build()),
            List.of(Queues.queue("q").build()),
            List.of(
                sharer("a", Tasks.task("t").running("n1")),
                sharer("b", Tasks.task("t").running("n2"))),
            List.of(claim("shared", exactly("gpu", 1)))),
        proportion);

    assertThat(queueGpus()).isEqualTo(2);
  }

  @Test
  void queuesCountAClaimTheyShareEachOnce() {
    Session s =
        Sessions.open(
            withClaims(
                List.of(Nodes.node("n1").cpu("8").build()),
                List.of(Queues.queue("q").build(), Queues.queue("r").build()),
                List.of(
                    sharer("a", Tasks.task("t").running("n1")),
                    Jobs.job("b")
                        .queue("r")
                        .task(Tasks.task("t").cpu("1").claim("gpu", "shared").running("n1"))
                        .build()),
                List.of(claim("shared", exactly("gpu", 1)))),
            proportion);

    assertThat(List.of(queueGpus(), proportion.queues().get("r").allocated(ResourceKind.GPU)))
        .containsExactly(1.0, 1.0);
    assertThat(s.quotaGpus(s.task("ns/a/t"))).isEqualTo(GpuAmount.ofDevices(1));
  }
}
