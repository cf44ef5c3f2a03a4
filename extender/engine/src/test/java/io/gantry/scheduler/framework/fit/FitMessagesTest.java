package io.gantry.scheduler.framework.fit;

import static io.gantry.scheduler.model.ResourceKind.CPU;
import static io.gantry.scheduler.model.ResourceKind.GPU;
import static io.gantry.scheduler.model.ResourceKind.MEMORY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.fit.NoNodeFits.NodeRejection;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden text: each reason's exact sentence (KAI's and kube-scheduler's wording, kai-reference §5.5
 * and §11), the node summary and the job message. Change a sentence only together with KAI.
 */
class FitMessagesTest {
  private static final NoNodeFits TWO_OF_THREE =
      new NoNodeFits(
          3,
          ImmutableList.of(
              rejected("n1", new InsufficientResource(GPU, 2, 1)),
              rejected("n3", new NodeNotReady())));
  private static final String TWO_OF_THREE_TEXT =
      "no nodes with enough resources were found: 1 node(s) didn't have enough resources: GPUs."
          + " \n1 node(s) were not ready.";

  record Case(FitReason reason, String sentence) {
    @Override
    public String toString() {
      return reason.kind().name();
    }
  }

  static Stream<Case> sentences() {
    return Stream.of(
        new Case(new NodeNotReady(), "node(s) were not ready"),
        new Case(new NodeUnschedulable(), "node(s) were unschedulable"),
        new Case(new TooManyPods(110), "node(s) pod number exceeded"),
        new Case(
            new NodeSelectorMismatch("zone"), "node(s) didn't match Pod's node affinity/selector"),
        new Case(new NodeAffinityMismatch(), "node(s) didn't match Pod's node affinity/selector"),
        new Case(
            new UntoleratedTaint(new Taint("nvidia.com/gpu", "present", TaintEffect.NO_SCHEDULE)),
            "node(s) had untolerated taint {nvidia.com/gpu: present}"),
        new Case(new PodAffinityUnsatisfied(), "node(s) didn't match pod affinity rules"),
        new Case(new PodAntiAffinityConflict(), "node(s) didn't match pod anti-affinity rules"),
        new Case(
            new ExistingPodAntiAffinityConflict(),
            "node(s) didn't satisfy existing pods anti-affinity rules"),
        new Case(new InsufficientResource(GPU, 2, 1), "node(s) didn't have enough resources: GPUs"),
        new Case(
            new InsufficientResource(CPU, 8_000, 4_000),
            "node(s) didn't have enough resources: CPU cores"),
        new Case(
            new InsufficientResource(MEMORY, 2e9, 1e9),
            "node(s) didn't have enough resources: memory"),
        new Case(
            new InsufficientExtendedResource("example.com/nic", 2, 1),
            "node(s) didn't have enough resources: example.com/nic"),
        new Case(new GpuMemoryNotSynced(), "node(s) didn't have a synced GPU memory label"),
        new Case(
            new GpuMemoryTooSmall(60_000, 40_900),
            "node(s) didn't have enough GPU memory per device"),
        new Case(
            new NodeResourceTypeMismatch(
                NodeResourceTypeMismatch.Rule.LEGACY_MIG_PODS_ON_NODE,
                "n1",
                ImmutableList.of("ns/a", "ns/b")),
            "MIG job cannot be scheduled on node with legacy MIG jobs: <[ns/a ns/b]>"),
        new Case(
            new NodeResourceTypeMismatch(
                NodeResourceTypeMismatch.Rule.LEGACY_MIG_POD, "n1", ImmutableList.of()),
            "Legacy MIG jobs cannot be scheduled on node n1"),
        new Case(
            new SharedGpusUnavailable(1, GpuAmount.ofHundredths(50), false),
            "node(s) didn't have enough resources: shared GPUs"),
        new Case(
            new OverLimit("team-a", GPU, 4, 3, 2),
            "team-a quota has reached the allowable limit of GPUs. Limit is 4 GPUs, currently 3"
                + " GPUs allocated and workload requested 2 GPUs"),
        new Case(
            new NonPreemptibleOverQuota("team-a", GPU, 2, 0, 3),
            "Non-preemptible workload is over quota. Workload requested 3 GPUs, but team-a quota"
                + " is 2 GPUs, while 0 GPUs are already allocated for non-preemptible pods. Use a"
                + " preemptible workload to go over quota."),
        new Case(new QueueDoesNotExist("ghost"), "Queue 'ghost' does not exist"),
        new Case(
            new JobNotReady(4, 3, 1),
            "Job is not ready for scheduling. Waiting for 4 pods, currently 3 exist, 1 are gated"),
        new Case(
            new GangIncomplete(3, 4, TWO_OF_THREE),
            "Resources were found for 3 pods while 4 are required for gang scheduling. Additional"
                + " pods cannot be scheduled due to: "
                + TWO_OF_THREE_TEXT),
        new Case(
            new PodResourcesNotFound("ns", "train-0", TWO_OF_THREE),
            "Resources were not found for pod ns/train-0 due to: " + TWO_OF_THREE_TEXT),
        new Case(
            new AllocatableTooSmall("nvidia.com/gpu"),
            "node(s) didn't have enough allocatable resources: GPUs"),
        new Case(
            new NoEvictionCanHelp("ns", "train-0", TWO_OF_THREE),
            "Resources were not found for pod ns/train-0 due to: no eviction can make room for it: "
                + TWO_OF_THREE_TEXT),
        new Case(
            new PreemptionDelayNotElapsed(
                java.time.Duration.ofMinutes(10), java.time.Instant.parse("2026-01-01T00:08:00Z")),
            "Workload is within its preemption delay window (10m0s) and may not trigger evictions"
                + " before 2026-01-01T00:08:00Z"),
        new Case(new TopologyMissing("dc"), "Requested topology dc does not exist"),
        new Case(new TopologyLevelMissing("dc", "row"), "topology dc has no level row"),
        new Case(
            new TopologyUnsatisfiable(
                "dc",
                "rack",
                "ns/train",
                java.util.Optional.of("workers"),
                java.util.Optional.of("z1")),
            "topology dc, requirement rack couldn't be satisfied for job <ns/train>, subgroup"
                + " workers: not enough resources in z1 to allocate the job"),
        new Case(
            new TopologyUnsatisfiable(
                "dc", "rack", "ns/train", java.util.Optional.empty(), java.util.Optional.empty()),
            "topology dc, requirement rack couldn't be satisfied for job <ns/train>: not enough"
                + " resources in the cluster to allocate the job"),
        new Case(
            new TopologyNoDomainFits("dc", "rack", "ns/train", java.util.Optional.empty()),
            "topology dc, requirement rack couldn't be satisfied for job <ns/train>"),
        new Case(
            TopologyDomainTooSmall.pods("z1.r2", 3, 4),
            "node-group z1.r2 can allocate only 3 of 4 required pods"),
        new Case(
            TopologyDomainTooSmall.resource("z1.r2", CPU),
            "node-group(s) didn't have enough resources: CPU cores"),
        new Case(
            new ClaimUnallocatable("ns/gpu", "the ResourceClaim does not exist"),
            "cannot allocate all claims: claim ns/gpu: the ResourceClaim does not exist"));
  }

  record Eviction(String name, EvictionReason reason, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Eviction> evictions() {
    EvictionReason.QueueState reclaimee =
        new EvictionReason.QueueState(
            "team-a",
            new io.gantry.scheduler.model.ResourceVector(8, 8_000, 8_589_934_592.0),
            new io.gantry.scheduler.model.ResourceVector(4, -1, -1),
            new io.gantry.scheduler.model.ResourceVector(6, 8_000, 8_589_934_592.0),
            100);
    EvictionReason.QueueState reclaimer =
        new EvictionReason.QueueState(
            "team-b",
            new io.gantry.scheduler.model.ResourceVector(0.5, 1_500, 1e9),
            new io.gantry.scheduler.model.ResourceVector(4, -1, -1),
            new io.gantry.scheduler.model.ResourceVector(2, 2_000, 2_147_483_648.0),
            50);
    return Stream.of(
        new Eviction(
            "reclaim",
            new EvictionReason.Reclaimed(
                "ns/a-7-run", "ns/b-train", Optional.of(reclaimee), Optional.of(reclaimer)),
            "Pod ns/a-7-run was preempted by workload ns/b-train.\n"
                + "team-a uses <GPU: 8, CPU: 8 (cores), memory: 8.59 (GB)> with a quota of <GPU:"
                + " 4, CPU: Unlimited (cores), memory: Unlimited (GB)>, fair-share of <GPU: 6, CPU:"
                + " 8 (cores), memory: 8.59 (GB)> and queue priority of <100>.\n"
                + "team-b uses <GPU: 0.5, CPU: 1.5 (cores), memory: 1 (GB)> with a quota of <GPU:"
                + " 4, CPU: Unlimited (cores), memory: Unlimited (GB)>, fair-share of <GPU: 2, CPU:"
                + " 2 (cores), memory: 2.147 (GB)> and queue priority of <50>."),
        new Eviction(
            "preempt",
            new EvictionReason.Preempted("ns/r-3-run", "ns/urgent"),
            "Pod ns/r-3-run was preempted by higher priority workload ns/urgent"),
        new Eviction(
            "consolidation",
            new EvictionReason.Consolidated("ns/r-3-run"),
            "Pod ns/r-3-run was preempted and rescheduled due to bin packing (resource"
                + " consolidation) procedure"),
        new Eviction(
            "stale gang",
            new EvictionReason.GangBelowMinimum("ns/g-a", 3, Optional.empty()),
            "Workload doesn't meet the minimum required number of pods (3), evicting remaining"
                + " pod: ns/g-a"),
        new Eviction(
            "stale sub-group",
            new EvictionReason.GangBelowMinimum("ns/g-a", 2, Optional.of("workers")),
            "Workload doesn't meet the minimum required number of pods (2) in sub-group workers,"
                + " evicting remaining pod: ns/g-a"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("evictions")
  void eviction(Eviction e) {
    assertThat(FitMessages.eviction(e.reason())).isEqualTo(e.message());
  }

  @Test
  void staleJobEvent() {
    assertThat(FitMessages.staleJob(new StaleJob(2, 4, Optional.empty())))
        .isEqualTo("Job is stale. 2 pods are active, minMember is 4");
    assertThat(
            FitMessages.staleJob(
                new StaleJob(2, 3, Optional.of(new StaleJob.ShortSubGroup("workers", 2, 1)))))
        .isEqualTo(
            "Job is stale. 2 pods are active, minMember is 3, subGroup workers minMember is 2 and"
                + " 1 pods are active");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sentences")
  void sentence(Case c) {
    assertThat(FitMessages.sentence(c.reason())).isEqualTo(c.sentence());
  }

  @Test
  void everyKindHasACase() {
    Set<FitReason.Kind> covered =
        sentences().map(c -> c.reason().kind()).collect(Collectors.toSet());
    assertThat(covered).isEqualTo(EnumSet.allOf(FitReason.Kind.class));
  }

  record Amounts(String name, FitReason reason, String sentence) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** KAI's wording (pkg/scheduler/api/unschedule_info.go): cores, and GB without "memory GB". */
  static Stream<Amounts> capacityAmounts() {
    return Stream.of(
        new Amounts(
            "fractional GPUs without trailing zeros",
            new OverLimit("q", GPU, 1.5, 1.25, 0.5),
            "q quota has reached the allowable limit of GPUs. Limit is 1.5 GPUs, currently 1.25"
                + " GPUs allocated and workload requested 0.5 GPUs"),
        new Amounts(
            "CPU in cores",
            new OverLimit("q", CPU, 16_000, 12_000, 8_000),
            "q quota has reached the allowable limit of CPU cores. Limit is 16 cores, currently 12"
                + " cores allocated and workload requested 8 cores"),
        new Amounts(
            "memory in GB",
            new OverLimit("q", MEMORY, 500e9, 400e9, 200e9),
            "q quota has reached the allowable limit of memory. Limit is 500 GB, currently 400 GB"
                + " allocated and workload requested 200 GB"),
        new Amounts(
            "non-preemptible CPU request in CPU cores",
            new NonPreemptibleOverQuota("q", CPU, 8_000, 4_000, 6_000),
            "Non-preemptible workload is over quota. Workload requested 6 CPU cores, but q quota"
                + " is 8 cores, while 4 cores are already allocated for non-preemptible pods. Use a"
                + " preemptible workload to go over quota."),
        new Amounts(
            "non-preemptible memory request in GB memory",
            new NonPreemptibleOverQuota("q", MEMORY, 100e9, 50e9, 200e9),
            "Non-preemptible workload is over quota. Workload requested 200 GB memory, but q quota"
                + " is 100 GB, while 50 GB are already allocated for non-preemptible pods. Use a"
                + " preemptible workload to go over quota."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("capacityAmounts")
  void capacityAmounts(Amounts c) {
    assertThat(FitMessages.sentence(c.reason())).isEqualTo(c.sentence());
  }

  @Test
  void taintWithAnEmptyValueKeepsTheEmptyValue() {
    assertThat(
            FitMessages.sentence(
                new UntoleratedTaint(
                    new Taint("node.kubernetes.io/not-ready", "", TaintEffect.NO_EXECUTE))))
        .isEqualTo("node(s) had untolerated taint {node.kubernetes.io/not-ready: }");
  }

  @Test
  void summaryCountsNodesPerReasonSortedWithTheirCounts() {
    NoNodeFits noNodeFits =
        new NoNodeFits(
            5,
            ImmutableList.of(
                rejected("n1", new UntoleratedTaint(new Taint("a", "b", TaintEffect.NO_SCHEDULE))),
                rejected("n2", new InsufficientResource(GPU, 4, 2)),
                rejected("n3", new NodeSelectorMismatch("zone")),
                rejected("n4", new InsufficientResource(GPU, 4, 0)),
                rejected("n5", new NodeAffinityMismatch())));

    // KAI sorts "<count> <reason>" as strings, so the count takes part in the order
    assertThat(FitMessages.summary(noNodeFits))
        .isEqualTo(
            "no nodes with enough resources were found: 1 node(s) had untolerated taint {a: b}. \n"
                + "2 node(s) didn't have enough resources: GPUs. \n"
                + "2 node(s) didn't match Pod's node affinity/selector.");
  }

  @Test
  void summaryCountsEachOfANodesReasons() {
    NoNodeFits noNodeFits =
        new NoNodeFits(
            3,
            ImmutableList.of(
                new NodeRejection(
                    "n1", ImmutableList.of(new NodeNotReady(), new NodeUnschedulable())),
                new NodeRejection("n2", ImmutableList.of(new NodeNotReady()), 2)));

    assertThat(FitMessages.summary(noNodeFits))
        .isEqualTo(
            "no nodes with enough resources were found: 1 node(s) were unschedulable. \n"
                + "3 node(s) were not ready.");
  }

  @Test
  void summaryWrapsACapacityCheckOnANodeAsKaisPredicateDoes() {
    NoNodeFits noNodeFits =
        new NoNodeFits(
            1,
            ImmutableList.of(rejected("n1", new NonPreemptibleOverQuota("q", GPU, 0.5, 0, 0.88))));

    assertThat(FitMessages.summary(noNodeFits))
        .isEqualTo(
            "no nodes with enough resources were found: 1 node does not have enough capacity."
                + " Reason: NonPreemptibleOverQuota, Details: Non-preemptible workload is over"
                + " quota. Workload requested 0.88 GPUs, but q quota is 0.5 GPUs, while 0 GPUs are"
                + " already allocated for non-preemptible pods. Use a preemptible workload to go"
                + " over quota..");
  }

  @Test
  void summaryLeavesOutANodeShortOnlyOfSharedRoomForAGpuMemoryRequest() {
    NoNodeFits noNodeFits =
        new NoNodeFits(
            2,
            ImmutableList.of(
                rejected("n1", new SharedGpusUnavailable(1, GpuAmount.ofHundredths(18), true)),
                rejected("n2", new NodeNotReady())));
    NoNodeFits onlyShortOfRoom =
        new NoNodeFits(
            1,
            ImmutableList.of(
                rejected("n1", new SharedGpusUnavailable(1, GpuAmount.ofHundredths(18), true))));
    NoNodeFits fraction =
        new NoNodeFits(
            1,
            ImmutableList.of(
                rejected("n1", new SharedGpusUnavailable(1, GpuAmount.ofHundredths(50), false))));

    assertThat(FitMessages.summary(noNodeFits))
        .isEqualTo("no nodes with enough resources were found: 1 node(s) were not ready.");
    assertThat(FitMessages.summary(onlyShortOfRoom))
        .isEqualTo("no nodes with enough resources were found");
    assertThat(FitMessages.summary(fraction))
        .isEqualTo(
            "no nodes with enough resources were found: 1 node(s) didn't have enough resources:"
                + " shared GPUs.");
  }

  @Test
  void codesAreKaisReasons() {
    assertThat(Arrays.stream(JobFitReason.Code.values()).map(FitMessages::code).toList())
        .containsExactly(
            "PodSchedulingErrors",
            "OverLimit",
            "NonPreemptibleOverQuota",
            "QueueDoesNotExist",
            "NotReady",
            "PreemptionDelayNotElapsed",
            "Not enough resources for the workload");
  }

  @Test
  void jobMessageOfOneReasonNamesIt() {
    assertThat(FitMessages.jobMessage(List.of(new QueueDoesNotExist("ghost"))))
        .contains("QueueDoesNotExist: Queue 'ghost' does not exist.");
  }

  @Test
  void jobMessageCollapsesIdenticalMessagesAndSortsThem() {
    PodResourcesNotFound pod = new PodResourcesNotFound("ns", "p", TWO_OF_THREE);

    assertThat(FitMessages.jobMessage(List.of(pod, new JobNotReady(2, 1, 0), pod)))
        .contains(
            "Unable to schedule podgroup: Job is not ready for scheduling. Waiting for 2 pods,"
                + " currently 1 exist, 0 are gated. \n2 Resources were not found for pod ns/p due"
                + " to: "
                + TWO_OF_THREE_TEXT);
  }

  @Test
  void noErrorsNoMessage() {
    assertThat(FitMessages.jobMessage(List.of())).isEqualTo(Optional.empty());
  }

  private static NodeRejection rejected(String node, NodeFitReason reason) {
    return new NodeRejection(node, ImmutableList.of(reason));
  }
}
