package io.gantry.scheduler.plugins.dynamicresources;

import static io.gantry.scheduler.testing.Dra.DRIVER;
import static io.gantry.scheduler.testing.Dra.claim;
import static io.gantry.scheduler.testing.Dra.device;
import static io.gantry.scheduler.testing.Dra.exactly;
import static io.gantry.scheduler.testing.Dra.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.actions.ActionRegistry;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Dra;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The plugin inside whole allocate cycles: gangs, rollback, existing allocations, GPU quota. */
class DynamicResourcesPluginTest {
  private static final QueueInfo QUEUE = Queues.queue("q").build();

  private static CycleResult run(
      List<NodeInfo> nodes,
      List<QueueInfo> queues,
      List<JobInfo> jobs,
      List<ResourceSlice> slices,
      List<ResourceClaim> claims) {
    ClusterSnapshot s = Snapshots.of(nodes, queues, jobs);
    DynamicResources dra = Dra.resources(List.of(Dra.gpuClass()), slices, claims);
    ClusterSnapshot withDra =
        new ClusterSnapshot(
            s.now(), s.nodes(), s.queues(), s.jobs(), s.queueUsage(), s.topologies(), dra);
    SchedulerConfig config =
        new SchedulerConfig(
            ImmutableList.of("allocate"),
            ImmutableSortedMap.of(),
            Placement.DEFAULTS,
            EvictionSettings.DEFAULTS);
    return new SchedulerWiring(
            new ActionRegistry(), new PluginRegistry(Dra.SELECTORS), new FakeTicker())
        .cycle(config)
        .run(withDra);
  }

  private static List<BindDecision> binds(CycleResult result) {
    return result.decisions().stream()
        .filter(d -> d.kind() == Decision.Kind.BIND)
        .map(BindDecision.class::cast)
        .toList();
  }

  private static ClaimAllocation onDevice(String claim, String node, String deviceName) {
    return new ClaimAllocation(
        "gpu",
        claim,
        AllocationResult.onNode(
            ImmutableList.of(new DeviceResult("gpu", DRIVER, node, deviceName)),
            ImmutableList.of(),
            node));
  }

  /** The claim "shared" with one GPU request, allocated and reserved for another pod. */
  private static ResourceClaim heldBy(String pod, AllocationResult allocation) {
    return new ResourceClaim(
        "ns",
        "shared",
        ImmutableSortedMap.of(),
        claim("shared", exactly("gpu", 1)).requests(),
        ImmutableList.of(),
        ImmutableList.of(),
        Optional.of(allocation),
        ImmutableList.of(pod));
  }

  /** Job {@code job} with one pod that uses the claim. */
  private static JobInfo podUsing(String job, String claim) {
    return Jobs.job(job)
        .namespace("ns")
        .queue("q")
        .task(Tasks.task("t0").cpu("1").claim("gpu", claim))
        .build();
  }

  /** A one-pod job created after the gangs, with the claim "solo-0". */
  private static JobInfo soloAfterGang() {
    return Jobs.job("solo")
        .namespace("ns")
        .queue("q")
        .creationOrder(5)
        .createdAt(Snapshots.T0.plusSeconds(60))
        .task(Tasks.task("t0").cpu("1").claim("gpu", "solo-0"))
        .build();
  }

  /** The task bound to the node with the claim's allocation and nothing else. */
  private static BindDecision bound(String taskId, String node, ClaimAllocation claim) {
    return new BindDecision(
        taskId,
        node,
        ImmutableList.of(),
        GpuAmount.ZERO,
        ImmutableList.of(claim),
        ImmutableList.of());
  }

  private static JobInfo gang(String name, int members) {
    Jobs.Builder job = Jobs.job(name).namespace("ns").queue("q").minMember(members);
    for (int i = 0; i < members; i++) {
      job.task(Tasks.task("t" + i).cpu("1").claim("gpu", name + "-" + i));
    }
    return job.build();
  }

  @Test
  void aGangIsAllocatedWholeWithOneDeviceEach() {
    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(QUEUE),
            List.of(gang("g", 2)),
            List.of(slice("n1", device("d0"), device("d1"))),
            List.of(claim("g-0", exactly("gpu", 1)), claim("g-1", exactly("gpu", 1))));

    assertThat(binds(result))
        .containsExactly(
            bound("ns/g/t0", "n1", onDevice("g-0", "n1", "d0")),
            bound("ns/g/t1", "n1", onDevice("g-1", "n1", "d1")));
  }

  @Test
  void aGangThatDoesNotFitWholeReleasesTheDevicesItTried() {
    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(QUEUE),
            List.of(gang("g", 2), soloAfterGang()),
            List.of(slice("n1", device("d0"))),
            List.of(
                claim("g-0", exactly("gpu", 1)),
                claim("g-1", exactly("gpu", 1)),
                claim("solo-0", exactly("gpu", 1))));

    assertThat(binds(result))
        .containsExactly(bound("ns/solo/t0", "n1", onDevice("solo-0", "n1", "d0")));
    assertThat(Cycles.job(result, "ns/g").fitMessage().orElseThrow())
        .contains(
            "cannot allocate all claims: claim ns/g-1: request gpu: needs 1 device(s) of class"
                + " gpu.example.com, 0 matching device(s) are free");
  }

  @Test
  void sharedCountersTakenInTheCycleStopALaterPodAndAreGivenBackWithTheGang() {
    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(QUEUE),
            List.of(gang("g", 2), soloAfterGang()),
            List.of(Dra.partitionedGpu("n1")),
            List.of(
                claim("g-0", exactly("gpu", 1)),
                claim("g-1", exactly("gpu", 1)),
                claim("solo-0", exactly("gpu", 1))));

    assertThat(binds(result))
        .containsExactly(bound("ns/solo/t0", "n1", onDevice("solo-0", "n1", "whole")));
    assertThat(Cycles.job(result, "ns/g").fitMessage().orElseThrow())
        .contains(
            "claim ns/g-1: request gpu: needs 1 device(s) of class gpu.example.com, 0 matching"
                + " device(s) are free, 2 would overdraw the shared counters of their pool");
  }

  @Test
  void aClaimAllocatedBeforeIsUsedOnlyOnItsNode() {
    AllocationResult onN2 =
        AllocationResult.onNode(
            ImmutableList.of(new DeviceResult("gpu", DRIVER, "n2", "d0")),
            ImmutableList.of(),
            "n2");
    ResourceClaim shared = heldBy("other-pod", onN2);
    JobInfo job = podUsing("j", "shared");

    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build(), Nodes.node("n2").cpu("8").build()),
            List.of(QUEUE),
            List.of(job),
            List.of(slice("n1", device("d0")), slice("n2", device("d0"))),
            List.of(shared));

    assertThat(binds(result))
        .containsExactly(bound("ns/j/t0", "n2", new ClaimAllocation("gpu", "shared", onN2)));
  }

  @Test
  void aClaimAllocatedBeforeWithANodeSelectorIsUsedOnlyOnTheNodesItSelects() {
    AllocationResult inZoneB =
        new AllocationResult(
            ImmutableList.of(new DeviceResult("gpu", DRIVER, "fabric", "f0")),
            ImmutableList.of(),
            ImmutableList.of(
                NodeSelectorTerm.ofExpressions(
                    NodeSelectorRequirement.of("zone", SelectorOperator.IN, "b"))));
    ResourceClaim shared = heldBy("other-pod", inZoneB);
    JobInfo job = podUsing("j", "shared");
    List<ResourceSlice> slices = List.of(slice("n1", device("d0")), slice("n2", device("d0")));

    CycleResult onlyZoneA =
        run(
            List.of(Nodes.node("n1").cpu("8").label("zone", "a").build()),
            List.of(QUEUE),
            List.of(job),
            slices,
            List.of(shared));
    CycleResult zoneB =
        run(
            List.of(
                Nodes.node("n1").cpu("8").label("zone", "a").build(),
                Nodes.node("n2").cpu("8").label("zone", "b").build()),
            List.of(QUEUE),
            List.of(job),
            slices,
            List.of(shared));

    assertThat(binds(onlyZoneA)).isEmpty();
    assertThat(Cycles.job(onlyZoneA, "ns/j").fitMessage().orElseThrow())
        .contains("claim ns/shared: its allocation's node selector does not select the node");
    assertThat(binds(zoneB)).extracting(BindDecision::nodeName).containsExactly("n2");
  }

  @Test
  void claimGpusCountAgainstTheQueueLimit() {
    QueueInfo limited = Queues.queue("q").gpu(1, 1, 1).build();
    JobInfo job = podUsing("j", "two");
    List<ResourceSlice> slices = List.of(slice("n1", device("d0"), device("d1")));

    CycleResult overLimit =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(limited),
            List.of(job),
            slices,
            List.of(claim("two", exactly("gpu", 2))));
    CycleResult withinLimit =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(limited),
            List.of(job),
            slices,
            List.of(claim("two", exactly("gpu", 1))));

    assertThat(binds(overLimit)).isEmpty();
    assertThat(binds(withinLimit)).hasSize(1);
  }

  @Test
  void podsSharingOneClaimRunUnderAGpuLimitOfOneAndTheQueueUsesOneGpu() {
    QueueInfo limited = Queues.queue("q").gpu(1, 1, 1).build();
    List<JobInfo> jobs = List.of(podUsing("server", "shared"), podUsing("sidecar", "shared"));

    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(limited),
            jobs,
            List.of(slice("n1", device("d0"), device("d1"))),
            List.of(claim("shared", exactly("gpu", 1))));

    assertThat(binds(result))
        .extracting(BindDecision::taskId, BindDecision::claimAllocations)
        .containsExactly(
            tuple("ns/server/t0", ImmutableList.of(onDevice("shared", "n1", "d0"))),
            tuple("ns/sidecar/t0", ImmutableList.of(onDevice("shared", "n1", "d0"))));
    assertThat(result.queues().get(0).allocated().gpus()).isEqualTo(1);
  }

  @Test
  void aGangSharingAClaimNeedsItsGpusOnceUnderTheLimit() {
    QueueInfo limited = Queues.queue("q").gpu(1, 1, 1).build();
    JobInfo gang =
        Jobs.job("gang")
            .namespace("ns")
            .queue("q")
            .minMember(2)
            .task(Tasks.task("t0").cpu("1").claim("gpu", "shared"))
            .task(Tasks.task("t1").cpu("1").claim("gpu", "shared"))
            .build();

    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(limited),
            List.of(gang),
            List.of(slice("n1", device("d0"))),
            List.of(claim("shared", exactly("gpu", 1))));

    assertThat(binds(result))
        .extracting(BindDecision::taskId)
        .containsExactly("ns/gang/t0", "ns/gang/t1");
    assertThat(result.queues().get(0).allocated().gpus()).isEqualTo(1);
  }

  @Test
  void aMissingClaimKeepsThePodPendingWithTheReason() {
    JobInfo job = podUsing("j", "nowhere");

    CycleResult result =
        run(
            List.of(Nodes.node("n1").cpu("8").build()),
            List.of(QUEUE),
            List.of(job),
            List.of(slice("n1", device("d0"))),
            List.of());

    assertThat(binds(result)).isEmpty();
    assertThat(Cycles.job(result, "ns/j").fitMessage().orElseThrow())
        .contains("cannot allocate all claims: claim ns/nowhere: the ResourceClaim does not exist");
  }

  @Test
  void aSharedGpuClaimWithoutTheQueueLabelKeepsThePodPending() {
    assertPendingWith(
        Map.of(),
        "DRA claim shared is a shared GPU claim but does not have a queue label"
            + " (kai.scheduler/queue)");
  }

  @Test
  void aSharedGpuClaimOfAnotherQueueKeepsThePodPending() {
    assertPendingWith(
        Map.of("kai.scheduler/queue", "other"),
        "DRA claim shared is a shared GPU claim with wrong queue label (expected queue: q,"
            + " claim queue label: other)");
  }

  private void assertPendingWith(Map<String, String> labels, String message) {
    CycleResult result = runSharedClaim(labels);

    assertThat(binds(result)).isEmpty();
    assertThat(Cycles.job(result, "ns/j").fitMessage().orElseThrow())
        .contains("cannot allocate all claims: claim ns/shared: " + message);
  }

  @Test
  void aSharedGpuClaimLabelledWithTheJobsQueueIsAllocated() {
    CycleResult result = runSharedClaim(Map.of("kai.scheduler/queue", "q"));

    assertThat(binds(result)).extracting(BindDecision::taskId).containsExactly("ns/j/t0");
  }

  private CycleResult runSharedClaim(Map<String, String> labels) {
    JobInfo job =
        Jobs.job("j")
            .namespace("ns")
            .queue("q")
            .task(Tasks.task("t0").cpu("1").sharedClaim("gpu", "shared"))
            .build();
    return run(
        List.of(Nodes.node("n1").cpu("8").build()),
        List.of(QUEUE),
        List.of(job),
        List.of(slice("n1", device("d0"))),
        List.of(Dra.labelled(claim("shared", exactly("gpu", 1)), labels)));
  }
}
