package io.gantry.scheduler.actions;

import static io.gantry.scheduler.model.placement.TaintEffect.NO_SCHEDULE;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import io.gantry.scheduler.testing.FitTexts;
import io.gantry.scheduler.testing.FitTexts.JobFitText;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §4.4–§4.6 through {@code new AllocateAction().execute(session)} with the default
 * plugins (binpack) on hand-built snapshots: what is bound or pipelined where, in which order, and
 * the fit errors of what is not.
 */
class AllocateActionTest {
  private static final List<QueueInfo> ONE_QUEUE = List.of(Queues.queue("q").build());

  @Test
  void queueWithTheLowerDominantResourceShareGoesFirst() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(3).build()),
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            List.of(
                Jobs.job("ra").queue("qa").task(Tasks.task("t0").gpus(2).running("n1")).build(),
                Jobs.job("ja").queue("qa").task(Tasks.task("t0").gpus(1)).build(),
                Jobs.job("jb").queue("qb").task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/jb/t0", "n1"));
    assertThat(FitTexts.of(session.job("ns/ja")))
        .containsExactly(
            podError(
                "Resources were not found for pod ns/ja-t0 due to: no nodes with enough resources"
                    + " were found: 1"
                    + " node(s) didn't have enough resources: GPUs."));
  }

  @Test
  void withoutAllocationTheOlderQueueGoesFirst() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(1).build()),
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            List.of(
                Jobs.job("jb").queue("qb").task(Tasks.task("t0").gpus(1)).build(),
                Jobs.job("ja").queue("qa").task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/ja/t0", "n1"));
  }

  @Test
  void elasticJobsOfTwoQueuesTakeTurnsByDominantShare() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(4).build()),
            List.of(
                Queues.queue("qa").gpu(2, 1, -1).build(), Queues.queue("qb").gpu(2, 1, -1).build()),
            List.of(
                Jobs.job("ja").queue("qa").minMember(1).tasks(4, t -> t.gpus(1)).build(),
                Jobs.job("jb").queue("qb").minMember(1).tasks(4, t -> t.gpus(1)).build()));

    assertThat(session.decisions())
        .containsExactly(
            bind("ns/ja/t0", "n1"),
            bind("ns/jb/t0", "n1"),
            bind("ns/ja/t1", "n1"),
            bind("ns/jb/t1", "n1"));
  }

  @Test
  void higherPriorityJobFirstInsideAQueue() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(1).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("low").priority(50).task(Tasks.task("t0").gpus(1)).build(),
                Jobs.job("high").priority(100).task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/high/t0", "n1"));
    assertThat(session.task("ns/low/t0").status()).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void equalPriorityOlderJobFirst() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(1).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("new")
                    .createdAt(Snapshots.T0.plus(Duration.ofMinutes(5)))
                    .task(Tasks.task("t0").gpus(1))
                    .build(),
                Jobs.job("old").task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/old/t0", "n1"));
  }

  @Test
  void gangIsAllOrNothing() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(3).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").minMember(4).tasks(4, t -> t.gpus(1)).build()));

    String message =
        "Resources were found for 3 pods while 4 are required for gang scheduling. Additional pods"
            + " cannot be scheduled due to: no nodes with enough resources were found: 1 node(s)"
            + " didn't have enough resources: GPUs.";
    assertThat(session.decisions()).isEmpty();
    assertThat(session.job("ns/j").tasks())
        .extracting(TaskState::status)
        .containsOnly(TaskStatus.PENDING);
    assertThat(session.node("n1").idle().gpus()).isEqualTo(GpuAmount.ofDevices(3));
    assertThat(FitTexts.of(session.job("ns/j"))).containsExactly(podError(message));
    assertThat(session.task("ns/j/t3").fitError().map(FitMessages::sentence)).contains(message);
    assertThat(FitMessages.jobMessage(session.job("ns/j").fitErrors()))
        .contains("PodSchedulingErrors: " + message);
  }

  @Test
  void gangThatFitsIsBoundInOnePass() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build(), Nodes.node("n2").gpus(2).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").minMember(4).tasks(4, t -> t.gpus(1)).build()));

    assertThat(session.decisions())
        .containsExactly(
            bind("ns/j/t0", "n1"),
            bind("ns/j/t1", "n1"),
            bind("ns/j/t2", "n2"),
            bind("ns/j/t3", "n2"));
  }

  @Test
  void elasticJobGrowsOnePodPerPassToTheNodesCapacity() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(3).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").minMember(1).tasks(5, t -> t.gpus(1)).build()));

    assertThat(session.decisions())
        .containsExactly(bind("ns/j/t0", "n1"), bind("ns/j/t1", "n1"), bind("ns/j/t2", "n1"));
    assertThat(session.job("ns/j").tasks())
        .extracting(TaskState::status)
        .containsExactly(
            TaskStatus.ALLOCATED,
            TaskStatus.ALLOCATED,
            TaskStatus.ALLOCATED,
            TaskStatus.PENDING,
            TaskStatus.PENDING);
    assertThat(FitTexts.of(session.job("ns/j")))
        .containsExactly(
            podError(
                "Resources were not found for pod ns/j-t3 due to: no nodes with enough resources"
                    + " were found: 1"
                    + " node(s) didn't have enough resources: GPUs."));
  }

  @Test
  void taskIsPipelinedOntoAReleasingTasksGpus() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(2).releasing("n1")).build(),
                Jobs.job("j").task(Tasks.task("t0").gpus(2)).build()));

    assertThat(session.decisions())
        .containsExactly(new PipelineDecision("ns/j/t0", "n1", ImmutableList.of(), GpuAmount.ZERO));
    assertThat(session.task("ns/j/t0").status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(session.events())
        .contains(
            new CycleEvent(
                "ns/j-t0",
                "Pipelined",
                "Pod ns/j-t0 is pipelined to node n1 and waits for resources being released"));
  }

  @Test
  void aNodeWithIdleGpusIsPreferredOverPipelining() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build(), Nodes.node("n2").gpus(2).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(2).releasing("n1")).build(),
                Jobs.job("j").task(Tasks.task("t0").gpus(2)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/j/t0", "n2"));
    assertThat(session.events())
        .contains(
            new CycleEvent(
                "ns/j-t0",
                "Scheduled",
                "Successfully assigned pod ns/j-t0 to node n2 at node-pool default"));
  }

  @Test
  void gangThatIsOnlyPartlyAllocatableIsPipelinedWhole() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(1).releasing("n1")).build(),
                Jobs.job("j").minMember(2).tasks(2, t -> t.gpus(1)).build()));

    assertThat(session.decisions())
        .containsExactly(
            new PipelineDecision("ns/j/t0", "n1", ImmutableList.of(), GpuAmount.ZERO),
            new PipelineDecision("ns/j/t1", "n1", ImmutableList.of(), GpuAmount.ZERO));
    assertThat(session.job("ns/j").tasks())
        .extracting(TaskState::status)
        .containsOnly(TaskStatus.PIPELINED);
  }

  @Test
  void aMemberThatFitsNowIsPipelinedWhileItsGangWaitsForReleases() {
    // issue 23: the gang pass (t0, t1) waits for old's GPUs; t2, placed by the next (elastic)
    // pass, fits at once but binding it would run it ahead of its gang (§4.6 item 5)
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(2).releasing("n1")).build(),
                Jobs.job("j")
                    .minMember(2)
                    .task(
                        Tasks.task("t0").gpus(1),
                        Tasks.task("t1").gpus(1),
                        Tasks.task("t2").cpu("1"))
                    .build()));

    assertThat(session.job("ns/j").tasks())
        .extracting(TaskState::status)
        .containsOnly(TaskStatus.PIPELINED);
    assertThat(session.decisions()).noneMatch(d -> d instanceof BindDecision);
  }

  @Test
  void aGroupOpenedOnAReleasingGpuTakesFurtherFractionsOnlyAsPipelined() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(1).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(1).releasing("n1")).build(),
                Jobs.job("a").task(Tasks.task("t0").gpuFraction(0.25)).build(),
                Jobs.job("b").task(Tasks.task("t0").gpuFraction(0.25)).build()));

    GpuAmount quarter = GpuAmount.ofHundredths(25);
    assertThat(session.decisions())
        .containsExactly(
            new PipelineDecision("ns/a/t0", "n1", ImmutableList.of("n1-gpu0"), quarter),
            new PipelineDecision("ns/b/t0", "n1", ImmutableList.of("n1-gpu0"), quarter));
    assertThat(session.node("n1").idleWholeGpus()).isZero();
    assertThat(session.node("n1").idle().gpus()).isEqualTo(GpuAmount.ZERO);
  }

  @Test
  void elasticJobBindsWhatFitsNowAndPipelinesTheRest() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(1).releasing("n1")).build(),
                Jobs.job("j").minMember(1).tasks(2, t -> t.gpus(1)).build()));

    assertThat(session.decisions())
        .containsExactly(
            bind("ns/j/t0", "n1"),
            new PipelineDecision("ns/j/t1", "n1", ImmutableList.of(), GpuAmount.ZERO));
  }

  @Test
  void aFractionJoinsAnExistingSharedGpuOnAnotherNode() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build(), Nodes.node("n2").gpus(4).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old")
                    .task(Tasks.task("t0").gpuFraction(0.5).running("n2").onGpuGroups(0.5, "g"))
                    .build(),
                Jobs.job("j").task(Tasks.task("t0").gpuFraction(0.5)).build()));

    assertThat(session.decisions())
        .containsExactly(
            new BindDecision("ns/j/t0", "n2", ImmutableList.of("g"), GpuAmount.ofHundredths(50)));
    assertThat(session.node("n2").idle().gpus()).isEqualTo(GpuAmount.ofDevices(3));
  }

  @Test
  void aMemoryRequestLargerThanSomeDevicesGoesToANodeWithLargerOnes() {
    Session session =
        allocate(
            List.of(
                Nodes.node("small").gpus(4).gpuMemoryMib(40_960).build(),
                Nodes.node("large").gpus(1).gpuMemoryMib(81_920).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").task(Tasks.task("t0").gpuMemoryMib(60_000)).build()));

    assertThat(session.decisions())
        .containsExactly(
            new BindDecision(
                "ns/j/t0", "large", ImmutableList.of("large-gpu0"), GpuAmount.ofHundredths(74)));
  }

  @Test
  void aMemoryRequestLargerThanEveryDeviceWaitsSayingSo() {
    Session session =
        allocate(
            List.of(
                Nodes.node("n1").gpus(4).gpuMemoryMib(40_960).build(),
                Nodes.node("n2").gpus(8).gpuMemoryMib(40_960).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").task(Tasks.task("t0").gpuMemoryMib(60_000)).build()));

    String message =
        "Resources were not found for pod ns/j-t0 due to: no nodes with enough resources were"
            + " found: 2 node(s) didn't have enough GPU memory per device.";
    assertThat(session.decisions()).isEmpty();
    assertThat(FitTexts.of(session.job("ns/j"))).containsExactly(podError(message));
    assertThat(session.node("n1").idle().gpus()).isEqualTo(GpuAmount.ofDevices(4));
  }

  @Test
  void wholeGpuTaskIsBinPackedOntoTheFullestNode() {
    Session session =
        allocate(
            List.of(
                Nodes.node("n1").gpus(8).build(),
                Nodes.node("n2").gpus(8).build(),
                Nodes.node("n3").gpus(8).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old")
                    .minMember(0)
                    .task(
                        Tasks.task("a").gpus(2).running("n1"),
                        Tasks.task("b").gpus(5).running("n3"))
                    .build(),
                Jobs.job("j").task(Tasks.task("t0").gpus(2)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/j/t0", "n3"));
  }

  @Test
  void cpuOnlyTaskPrefersACpuOnlyNode() {
    Session session =
        allocate(
            List.of(Nodes.node("cpu").cpu("8").build(), Nodes.node("gpu").gpus(8).cpu("8").build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").cpu("4").running("gpu")).build(),
                Jobs.job("j").task(Tasks.task("t0").cpu("1")).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/j/t0", "cpu"));
  }

  @Test
  void nonPreemptibleJobBeyondItsQueueQuotaIsNotPlaced() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(8).build()),
            List.of(Queues.queue("q").gpu(1, 1, -1).build()),
            List.of(
                Jobs.job("j")
                    .priority(100)
                    .nonPreemptible()
                    .minMember(2)
                    .tasks(2, t -> t.gpus(1))
                    .build()));

    assertThat(session.decisions()).isEmpty();
    assertThat(FitTexts.of(session.job("ns/j")))
        .containsExactly(
            FitTexts.nonPreemptibleOverQuota(
                "Non-preemptible workload is over quota. Workload requested 2 GPUs, but q quota is"
                    + " 1 GPUs, while 0 GPUs are already allocated for non-preemptible pods. Use a"
                    + " preemptible workload to go over quota."));
  }

  @Test
  void aPipelinedGangsSharedGpuIsNotGivenToTheNextJob() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(2).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("old").task(Tasks.task("t0").gpus(1).releasing("n1")).build(),
                Jobs.job("gang")
                    .priority(100)
                    .minMember(3)
                    .task(
                        Tasks.task("t0").gpuFraction(0.5),
                        Tasks.task("t1").gpuFraction(0.5),
                        Tasks.task("t2").gpus(1))
                    .build(),
                Jobs.job("next").priority(50).task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions())
        .containsExactly(
            new PipelineDecision(
                "ns/gang/t0", "n1", ImmutableList.of("n1-gpu0"), GpuAmount.ofHundredths(50)),
            new PipelineDecision(
                "ns/gang/t1", "n1", ImmutableList.of("n1-gpu0"), GpuAmount.ofHundredths(50)),
            new PipelineDecision("ns/gang/t2", "n1", ImmutableList.of(), GpuAmount.ZERO));
    assertThat(session.task("ns/next/t0").status()).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void notReadyJobWithGatedPodsIsNotScheduled() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(8).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("j")
                    .minMember(2)
                    .task(Tasks.task("t0").gpus(1), Tasks.task("t1").gpus(1).gated())
                    .build()));

    String message =
        "Job is not ready for scheduling. Waiting for 2 pods, currently 2 exist, 1 are gated";
    assertThat(session.decisions()).isEmpty();
    assertThat(session.task("ns/j/t0").status()).isEqualTo(TaskStatus.PENDING);
    assertThat(session.events()).containsExactly(new CycleEvent("ns/j", "NotReady", message));
    assertThat(FitTexts.of(session.job("ns/j")))
        .containsExactly(new JobFitText("NotReady", message));
  }

  @Test
  void jobOverItsQueueLimitIsNotPlaced() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(8).build()),
            List.of(Queues.queue("q").gpu(-1, 1, 1).build()),
            List.of(Jobs.job("j").minMember(2).tasks(2, t -> t.gpus(1)).build()));

    assertThat(session.decisions()).isEmpty();
    assertThat(FitTexts.of(session.job("ns/j")))
        .containsExactly(
            FitTexts.overLimit(
                "q quota has reached the allowable limit of GPUs. Limit is 1 GPUs, currently 0 GPUs"
                    + " allocated and workload requested 2 GPUs"));
  }

  @Test
  void elasticJobGrowsUpToItsQueueLimit() {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(8).build()),
            List.of(Queues.queue("q").gpu(-1, 1, 2).build()),
            List.of(Jobs.job("j").minMember(1).tasks(3, t -> t.gpus(1)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/j/t0", "n1"), bind("ns/j/t1", "n1"));
    assertThat(FitTexts.of(session.job("ns/j")))
        .containsExactly(
            FitTexts.overLimit(
                "q quota has reached the allowable limit of GPUs. Limit is 2 GPUs, currently 2 GPUs"
                    + " allocated and workload requested 1 GPUs"));
  }

  @Test
  void taintedNodeIsSkipped() {
    Session session =
        allocate(
            List.of(
                Nodes.node("n1").gpus(8).taint("dedicated", "infra", NO_SCHEDULE).build(),
                Nodes.node("n2").gpus(8).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions()).containsExactly(bind("ns/j/t0", "n2"));
  }

  @Test
  void tolerationLetsATaskOntoATaintedNode() {
    Session session =
        allocate(
            List.of(
                Nodes.node("n1").gpus(8).taint("dedicated", "infra", NO_SCHEDULE).build(),
                Nodes.node("n2").gpus(8).build()),
            ONE_QUEUE,
            List.of(
                Jobs.job("j")
                    .task(
                        Tasks.task("t0")
                            .gpus(1)
                            .tolerations(
                                new Toleration(
                                    "dedicated",
                                    TolerationOperator.EQUAL,
                                    "infra",
                                    Optional.of(NO_SCHEDULE))))
                    .build()));

    assertThat(session.decisions()).containsExactly(bind("ns/j/t0", "n1"));
  }

  @Test
  void fitMessageCountsEachReasonOverNodes() {
    Session session =
        allocate(
            List.of(
                Nodes.node("n1").gpus(8).taint("dedicated", "infra", NO_SCHEDULE).build(),
                Nodes.node("n2").gpus(1).build(),
                Nodes.node("n3").gpus(1).build()),
            ONE_QUEUE,
            List.of(Jobs.job("j").task(Tasks.task("t0").gpus(2)).build()));

    String message =
        "Resources were not found for pod ns/j-t0 due to: no nodes with enough resources were"
            + " found: 1 node(s) had untolerated taint {dedicated: infra}. \n2 node(s) didn't"
            + " have enough resources: GPUs.";
    assertThat(session.decisions()).isEmpty();
    assertThat(FitTexts.of(session.job("ns/j"))).containsExactly(podError(message));
    assertThat(session.task("ns/j/t0").fitError().map(FitMessages::sentence)).contains(message);
  }

  record QueueCase(String name, String queue, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<QueueCase> missingQueues() {
    return Stream.of(
        // KAI's words for a missing queue; the reason for one that exists but holds no jobs
        new QueueCase("queue does not exist", "nope", "Queue 'nope' does not exist"),
        new QueueCase(
            "queue is a parent",
            "p",
            "Queue 'p' is not a leaf queue (it is the parent of 'q'); jobs go to leaf queues"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("missingQueues")
  void jobOfAMissingOrParentQueueIsNotScheduled(QueueCase c) {
    Session session =
        allocate(
            List.of(Nodes.node("n1").gpus(8).build()),
            List.of(Queues.queue("p").build(), Queues.queue("q").parent("p").build()),
            List.of(Jobs.job("j").queue(c.queue()).task(Tasks.task("t0").gpus(1)).build()));

    assertThat(session.decisions()).isEmpty();
    assertThat(FitTexts.of(session.job("ns/j")))
        .containsExactly(new JobFitText("QueueDoesNotExist", c.message()));
  }

  @Test
  void sameSnapshotGivesTheSameDecisions() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(
                Nodes.node("n1").gpus(4).build(),
                Nodes.node("n2").gpus(4).build(),
                Nodes.node("n3").gpus(2).build()),
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 2, -1).build()),
            List.of(
                Jobs.job("a1").queue("qa").minMember(2).tasks(3, t -> t.gpus(1)).build(),
                Jobs.job("a2").queue("qa").tasks(2, t -> t.gpuFraction(0.5)).build(),
                Jobs.job("b1")
                    .queue("qb")
                    .priority(100)
                    .minMember(1)
                    .tasks(4, t -> t.gpus(1))
                    .build(),
                Jobs.job("b2").queue("qb").task(Tasks.task("t0").cpu("4")).build()));

    List<Decision> first = run(snapshot).decisions();
    List<Decision> second = run(snapshot).decisions();

    assertThat(first).hasSize(10).isEqualTo(second);
  }

  private static Session allocate(
      List<NodeInfo> nodes, List<QueueInfo> queues, List<JobInfo> jobs) {
    return run(Snapshots.of(nodes, queues, jobs));
  }

  private static Session run(ClusterSnapshot snapshot) {
    Session session = Sessions.openDefault(snapshot);
    new AllocateAction().execute(session);
    return session;
  }

  private static BindDecision bind(String taskId, String node) {
    return new BindDecision(taskId, node, ImmutableList.of(), GpuAmount.ZERO);
  }

  private static JobFitText podError(String message) {
    return FitTexts.podSchedulingErrors(message);
  }
}
