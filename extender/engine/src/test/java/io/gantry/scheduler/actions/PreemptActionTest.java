package io.gantry.scheduler.actions;

import static io.gantry.scheduler.testing.Cycles.evicted;
import static io.gantry.scheduler.testing.Cycles.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The preempt action (kai-reference §4.9, §10.2–10.4): within one queue, strictly lower priority
 * only, never a non-preemptible victim nor a non-preemptible preemptor over quota, and never a job
 * within its min-runtime. One 4-GPU node, a queue with quota 4, four running 1-GPU train jobs.
 */
class PreemptActionTest {
  private static final List<QueueInfo> QUEUES =
      List.of(Queues.queue("q").gpu(4, 1, -1).build(), Queues.queue("other").gpu(0, 1, -1).build());

  private static List<JobInfo> fullNode(int priority) {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(
          Jobs.job("r-" + i)
              .queue("q")
              .priority(priority)
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    return jobs;
  }

  private static CycleResult preempt(List<JobInfo> jobs) {
    return Cycles.run(
        Snapshots.of(List.of(Nodes.node("n1").gpus(4).build()), QUEUES, jobs), "preempt");
  }

  @Test
  void aHigherPriorityJobPreemptsTheNewestLowerPriorityJobs() {
    List<JobInfo> jobs = fullNode(50);
    jobs.add(Jobs.job("urgent").queue("q").priority(75).task(Tasks.task("t").gpus(2)).build());

    CycleResult r = preempt(jobs);

    assertThat(evicted(r)).containsExactly("ns/r-3/t", "ns/r-2/t");
    assertThat(status(r, "ns/urgent/t")).isEqualTo(TaskStatus.PIPELINED);
    assertThat(Cycles.evictions(r).get(0).message())
        .isEqualTo("Pod ns/r-3-t was preempted by higher priority workload ns/urgent");
    assertThat(Cycles.evictions(r).get(0).cause())
        .isEqualTo(new EvictionCause("preempt", Optional.of("ns/urgent"), 2));
  }

  @Test
  void eachElasticJobGivesUpItsSurplusBeforeAnyJobDropsToItsMinimum() {
    // KAI preempt_elastic_test "… single task from several elastic train jobs": after one surplus
    // pod, a job goes back into the victim queue ranked by the pods it has left (at its minimum),
    // so the other job's surplus comes next rather than this job's last pod
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      jobs.add(
          Jobs.job("elastic-" + i)
              .queue("q")
              .minMember(1)
              .createdAt(Snapshots.T0.plusSeconds(i))
              .tasks(2, t -> t.gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("urgent").queue("q").priority(125).task(Tasks.task("t").gpus(2)).build());

    CycleResult r = preempt(jobs);

    assertThat(evicted(r)).containsExactlyInAnyOrder("ns/elastic-0/t1", "ns/elastic-1/t1");
    assertThat(status(r, "ns/urgent/t")).isEqualTo(TaskStatus.PIPELINED);
  }

  @Test
  void anElasticJobAtItsMinimumTiesWithOtherJobsAndTheNewestGoes() {
    // KAI preempt_elastic_test "… running job and a single task from elastic train job"
    List<JobInfo> jobs =
        List.of(
            Jobs.job("elastic")
                .queue("q")
                .minMember(1)
                .tasks(2, t -> t.gpus(1).running("n1"))
                .build(),
            Jobs.job("single")
                .queue("q")
                .createdAt(Snapshots.T0.plusSeconds(1))
                .task(Tasks.task("t").gpus(1).running("n1"))
                .build(),
            Jobs.job("urgent").queue("q").priority(125).task(Tasks.task("t").gpus(2)).build());

    CycleResult r =
        Cycles.run(
            Snapshots.of(List.of(Nodes.node("n1").gpus(3).build()), QUEUES, jobs), "preempt");

    assertThat(evicted(r)).containsExactlyInAnyOrder("ns/elastic/t1", "ns/single/t");
    assertThat(status(r, "ns/elastic/t0")).isEqualTo(TaskStatus.RUNNING);
  }

  @Test
  void fractionsOnASharedGpuAreVictimsAndOnlyTheSmallestSetIsEvicted() {
    // a half and two quarters fill the GPU; the newest quarter alone frees too little, and once
    // the half is evicted too the quarter fits back where it runs: only the half goes
    List<JobInfo> jobs =
        List.of(
            fraction("quarter-0", 0.25, 0),
            fraction("half", 0.5, 1),
            fraction("quarter-1", 0.25, 2),
            Jobs.job("urgent")
                .queue("q")
                .priority(75)
                .task(Tasks.task("t").gpuFraction(0.5))
                .build());

    CycleResult r =
        Cycles.run(
            Snapshots.of(List.of(Nodes.node("n1").gpus(1).build()), QUEUES, jobs), "preempt");

    assertThat(evicted(r)).containsExactly("ns/half/t");
    assertThat(status(r, "ns/quarter-1/t")).isEqualTo(TaskStatus.RUNNING);
    assertThat(status(r, "ns/urgent/t")).isEqualTo(TaskStatus.PIPELINED);
  }

  private static JobInfo fraction(String name, double portion, long creationOrder) {
    return Jobs.job(name)
        .queue("q")
        .creationOrder(creationOrder)
        .task(Tasks.task("t").gpuFraction(portion).running("n1").onGpuGroups(portion, "g0"))
        .build();
  }

  @Test
  void equalPriorityPreemptsNothing() {
    List<JobInfo> jobs = fullNode(50);
    jobs.add(Jobs.job("peer").queue("q").priority(50).task(Tasks.task("t").gpus(1)).build());

    assertThat(evicted(preempt(jobs))).isEmpty();
  }

  @Test
  void jobsOfOtherQueuesAreNeverPreempted() {
    List<JobInfo> jobs = fullNode(50);
    jobs.add(Jobs.job("urgent").queue("other").priority(75).task(Tasks.task("t").gpus(1)).build());

    assertThat(evicted(preempt(jobs))).isEmpty();
  }

  @Test
  void nonPreemptibleVictimsAreNeverPreempted() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(
          Jobs.job("r-" + i)
              .queue("q")
              .priority(100)
              .nonPreemptible()
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("urgent").queue("q").priority(125).task(Tasks.task("t").gpus(1)).build());

    assertThat(evicted(preempt(jobs))).isEmpty();
  }

  @Test
  void aNonPreemptibleJobNeverPreemptsItsWayOverQuota() {
    // three non-preemptible GPUs and one preemptible train job; a non-preemptible 1-GPU job would
    // bring the queue's non-preemptible allocation to 4, past a quota of 3 (and within one of 4)
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      jobs.add(
          Jobs.job("np-" + i)
              .queue("q")
              .priority(100)
              .nonPreemptible()
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("train").queue("q").task(Tasks.task("t").gpus(1).running("n1")).build());
    jobs.add(
        Jobs.job("service")
            .queue("q")
            .priority(125)
            .nonPreemptible()
            .task(Tasks.task("t").gpus(1))
            .build());
    var node = List.of(Nodes.node("n1").gpus(4).build());

    CycleResult overQuota =
        Cycles.run(
            Snapshots.of(node, List.of(Queues.queue("q").gpu(3, 1, -1).build()), jobs), "preempt");
    CycleResult inQuota =
        Cycles.run(
            Snapshots.of(node, List.of(Queues.queue("q").gpu(4, 1, -1).build()), jobs), "preempt");

    assertThat(evicted(overQuota)).isEmpty();
    assertThat(evicted(inQuota)).containsExactly("ns/train/t");
  }

  @Test
  void aJobWithinItsMinRuntimeIsNotAVictimButAnOlderOneIs() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      // r-3 started a minute ago, the others an hour ago
      Duration ago = i == 3 ? Duration.ofMinutes(1) : Duration.ofHours(1);
      jobs.add(
          Jobs.job("r-" + i)
              .queue("q")
              .priority(50)
              .lastStartedAt(Snapshots.T0.minus(ago))
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("urgent").queue("q").priority(75).task(Tasks.task("t").gpus(1)).build());
    List<QueueInfo> queues =
        List.of(
            new QueueInfo(
                "q",
                Optional.empty(),
                100,
                Queues.queue("q").gpu(4, 1, -1).build().gpu(),
                Queues.queue("q").build().cpu(),
                Queues.queue("q").build().memory(),
                Optional.of(Duration.ofMinutes(10)),
                Optional.empty(),
                0));

    CycleResult r =
        Cycles.run(
            Snapshots.of(List.of(Nodes.node("n1").gpus(4).build()), queues, jobs), "preempt");

    assertThat(evicted(r)).containsExactly("ns/r-2/t");
  }

  @Test
  void aJobInsideItsPreemptionDelayWaitsAndSaysUntilWhen() {
    List<JobInfo> jobs = fullNode(50);
    jobs.add(
        Jobs.job("urgent")
            .queue("q")
            .priority(75)
            .createdAt(Snapshots.T0.minus(Duration.ofMinutes(2)))
            .preemptionDelay(Duration.ofMinutes(10))
            .task(Tasks.task("t").gpus(1))
            .build());

    CycleResult r = preempt(jobs);

    assertThat(evicted(r)).isEmpty();
    assertThat(Cycles.job(r, "ns/urgent").fitMessage())
        .contains(
            "PreemptionDelayNotElapsed: Workload is within its preemption delay window (10m0s) and"
                + " may not trigger evictions before 2025-01-01T00:08:00Z.");
  }

  @Test
  void theDelayRestartsFromTheJobsLastEviction() {
    List<JobInfo> jobs = fullNode(50);
    jobs.add(
        Jobs.job("urgent")
            .queue("q")
            .priority(75)
            .createdAt(Snapshots.T0.minus(Duration.ofHours(1)))
            .lastEvictedAt(Snapshots.T0.minus(Duration.ofMinutes(1)))
            .preemptionDelay(Duration.ofMinutes(5))
            .task(Tasks.task("t").gpus(1))
            .build());

    assertThat(evicted(preempt(jobs))).isEmpty();
  }
}
