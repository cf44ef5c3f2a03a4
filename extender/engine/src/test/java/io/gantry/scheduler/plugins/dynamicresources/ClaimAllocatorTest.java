package io.gantry.scheduler.plugins.dynamicresources;

import static io.gantry.scheduler.testing.Dra.DRIVER;
import static io.gantry.scheduler.testing.Dra.all;
import static io.gantry.scheduler.testing.Dra.claim;
import static io.gantry.scheduler.testing.Dra.device;
import static io.gantry.scheduler.testing.Dra.deviceFor;
import static io.gantry.scheduler.testing.Dra.exactly;
import static io.gantry.scheduler.testing.Dra.perDeviceSlice;
import static io.gantry.scheduler.testing.Dra.slice;
import static io.gantry.scheduler.testing.Dra.sliceFor;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceConstraint;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourcePool;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import io.gantry.scheduler.testing.Dra;
import io.gantry.scheduler.testing.Nodes;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One case per rule of protocols.md §4.5 (items 1–5); each fails if its rule is removed. */
class ClaimAllocatorTest {
  private static final NodeInfo N1 = Nodes.node("n1").label("zone", "a").build();

  private static AllocationOutcome allocate(
      List<ResourceSlice> slices, Set<String> held, ResourceClaim... claims) {
    DeviceMatcher matcher =
        new DeviceMatcher(Dra.SELECTORS, ImmutableMap.of(Dra.GPU_CLASS, Dra.gpuClass()));
    DevicePools pools = new DevicePools(slices);
    CounterBudget counters = new CounterBudget(pools.current());
    held.forEach(counters::hold);
    return new ClaimAllocator(List.of(claims), pools.reachableFrom(N1), held, counters, matcher)
        .allocate();
  }

  private static AllocationOutcome allocated(String pool, String... requestAndDevice) {
    ImmutableList.Builder<DeviceResult> devices = ImmutableList.builder();
    for (int i = 0; i < requestAndDevice.length; i += 2) {
      devices.add(new DeviceResult(requestAndDevice[i], DRIVER, pool, requestAndDevice[i + 1]));
    }
    return new AllocationOutcome.Allocated(
        ImmutableList.of(AllocationResult.onNode(devices.build(), ImmutableList.of(), "n1")));
  }

  @Test
  void onlyTheNewestGenerationOfAPoolCounts() {
    ResourceSlice old = slice("n1", 1, 1, device("old-0"));
    ResourceSlice current = slice("n1", 2, 1, device("new-0"));

    assertThat(allocate(List.of(old, current), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocated("n1", "gpu", "new-0"));
  }

  @Test
  void allocationModeAllRefusesAnIncompletePool() {
    ResourceSlice half = slice("n1", 1, 2, device("d0"), device("d1"));

    assertThat(allocate(List.of(half), Set.of(), claim("c", all("gpu"))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: allocationMode All needs every device, but resource pool"
                    + " gpu.example.com/n1 is incomplete"));
    assertThat(allocate(List.of(half), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocated("n1", "gpu", "d0"));
  }

  @Test
  void aSliceOfAnotherNodeIsNotReached() {
    ResourceSlice elsewhere = slice("n2", device("d0"));

    assertThat(allocate(List.of(elsewhere), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c", "request gpu: no device of class gpu.example.com matches its selectors"));
  }

  private static final NodeSelectorTerm ZONE_A =
      NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of("zone", SelectorOperator.IN, "a"));
  private static final NodeSelectorTerm ZONE_B =
      NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of("zone", SelectorOperator.IN, "b"));

  private static AllocationOutcome allocatedWhere(
      String pool, ImmutableList<NodeSelectorTerm> terms, String... requestAndDevice) {
    ImmutableList.Builder<DeviceResult> devices = ImmutableList.builder();
    for (int i = 0; i < requestAndDevice.length; i += 2) {
      devices.add(new DeviceResult(requestAndDevice[i], DRIVER, pool, requestAndDevice[i + 1]));
    }
    return new AllocationOutcome.Allocated(
        ImmutableList.of(new AllocationResult(devices.build(), ImmutableList.of(), terms)));
  }

  @Test
  void aSliceSelectorReachesTheNodesItSelectsAndBecomesTheAllocationsSelector() {
    ResourceSlice inB = sliceFor("zone-b", DeviceNodes.selector(ZONE_B), device("b0"));
    ResourceSlice inA = sliceFor("zone-a", DeviceNodes.selector(ZONE_A), device("a0"));

    assertThat(allocate(List.of(inB, inA), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocatedWhere("zone-a", ImmutableList.of(ZONE_A), "gpu", "a0"));
  }

  @Test
  void allNodesReachesEveryNodeAndBindsNone() {
    ResourceSlice everywhere = sliceFor("shared", DeviceNodes.ALL_NODES, device("x0"));

    assertThat(allocate(List.of(everywhere), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocatedWhere("shared", ImmutableList.of(), "gpu", "x0"));
  }

  @Test
  void perDeviceNodeSelectionReachesEachDeviceByItsOwnFields() {
    ResourceSlice perDevice =
        perDeviceSlice(
            "mixed",
            deviceFor("on-n2", DeviceNodes.node("n2")),
            deviceFor("in-b", DeviceNodes.selector(ZONE_B)),
            deviceFor("in-a", DeviceNodes.selector(ZONE_A)),
            deviceFor("on-n1", DeviceNodes.node("n1")),
            deviceFor("anywhere", DeviceNodes.ALL_NODES));

    assertThat(allocate(List.of(perDevice), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocatedWhere("mixed", ImmutableList.of(ZONE_A), "gpu", "in-a"));
    assertThat(allocate(List.of(perDevice), Set.of(), claim("c", exactly("gpu", 3))))
        .isEqualTo(
            allocatedWhere(
                "mixed",
                ImmutableList.of(DeviceNodes.nodeNameTerm("n1")),
                "gpu",
                "in-a",
                "gpu",
                "on-n1",
                "gpu",
                "anywhere"));
  }

  @Test
  void theSelectorsOfSeveralDevicesAreAndedIntoOneTerm() {
    NodeSelectorTerm gpuNodes =
        NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of("gpu", SelectorOperator.EXISTS));
    ResourceSlice inA = sliceFor("zone-a", DeviceNodes.selector(ZONE_A), device("a0"));
    ResourceSlice onGpuNodes = sliceFor("fabric", DeviceNodes.selector(gpuNodes), device("f0"));
    NodeInfo gpuNodeInA = Nodes.node("n1").label("zone", "a").label("gpu", "true").build();
    DeviceMatcher matcher =
        new DeviceMatcher(Dra.SELECTORS, ImmutableMap.of(Dra.GPU_CLASS, Dra.gpuClass()));

    assertThat(
            new ClaimAllocator(
                    List.of(claim("c", exactly("gpu", 2))),
                    new DevicePools(List.of(inA, onGpuNodes)).reachableFrom(gpuNodeInA),
                    Set.of(),
                    new CounterBudget(List.of(inA, onGpuNodes)),
                    matcher)
                .allocate())
        .isEqualTo(
            new AllocationOutcome.Allocated(
                ImmutableList.of(
                    new AllocationResult(
                        ImmutableList.of(
                            new DeviceResult("gpu", DRIVER, "zone-a", "a0"),
                            new DeviceResult("gpu", DRIVER, "fabric", "f0")),
                        ImmutableList.of(),
                        ImmutableList.of(
                            new NodeSelectorTerm(
                                ImmutableList.of(
                                    NodeSelectorRequirement.of("zone", SelectorOperator.IN, "a"),
                                    NodeSelectorRequirement.of("gpu", SelectorOperator.EXISTS)),
                                ImmutableList.of()))))));
  }

  @Test
  void devicesHeldByOtherClaimsAreSkipped() {
    ResourceSlice s = slice("n1", device("d0"), device("d1"));

    assertThat(allocate(List.of(s), Set.of(DRIVER + "/n1/d0"), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocated("n1", "gpu", "d1"));
  }

  @Test
  void claimsOfOnePodGetDistinctDevices() {
    ResourceSlice s = slice("n1", device("d0"), device("d1"));

    assertThat(
            allocate(
                List.of(s), Set.of(), claim("a", exactly("gpu", 1)), claim("b", exactly("gpu", 1))))
        .isEqualTo(
            new AllocationOutcome.Allocated(
                ImmutableList.of(
                    AllocationResult.onNode(
                        ImmutableList.of(new DeviceResult("gpu", DRIVER, "n1", "d0")),
                        ImmutableList.of(),
                        "n1"),
                    AllocationResult.onNode(
                        ImmutableList.of(new DeviceResult("gpu", DRIVER, "n1", "d1")),
                        ImmutableList.of(),
                        "n1"))));
  }

  @Test
  void classAndRequestSelectorsMustBothMatch() {
    ResourceSlice s = slice("n1", device("a100", "model", "A100"), device("h100", "model", "H100"));
    DeviceMatcher strictClass =
        new DeviceMatcher(
            Dra.SELECTORS,
            ImmutableMap.of(
                Dra.GPU_CLASS,
                new DeviceClass(
                    Dra.GPU_CLASS, ImmutableList.of("model==H100"), ImmutableList.of())));

    assertThat(allocate(List.of(s), Set.of(), claim("c", exactly("gpu", 1, "model==H100"))))
        .isEqualTo(allocated("n1", "gpu", "h100"));
    assertThat(
            new ClaimAllocator(
                    List.of(claim("c", exactly("gpu", 1, "model==A100"))),
                    new DevicePools(List.of(s)).reachableFrom(N1),
                    Set.of(),
                    new CounterBudget(List.of(s)),
                    strictClass)
                .allocate())
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c", "request gpu: no device of class gpu.example.com matches its selectors"));
  }

  @Test
  void aSelectorThatFailsFailsTheAllocationNamingTheExpression() {
    ResourceSlice s = slice("n1", device("d0"));

    assertThat(allocate(List.of(s), Set.of(), claim("c", exactly("gpu", 1, "fail:no such key"))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "selector \"fail:no such key\" of request gpu failed on device"
                    + " gpu.example.com/n1/d0: no such key"));
  }

  @Test
  void exactCountTakesCountDevicesOrFails() {
    ResourceSlice s = slice("n1", device("d0"), device("d1"), device("d2"));

    assertThat(allocate(List.of(s), Set.of(), claim("c", exactly("gpu", 2))))
        .isEqualTo(allocated("n1", "gpu", "d0", "gpu", "d1"));
    assertThat(allocate(List.of(s), Set.of(), claim("c", exactly("gpu", 4))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: needs 4 device(s) of class gpu.example.com, 3 matching device(s)"
                    + " are free"));
  }

  @Test
  void allTakesEveryMatchingDeviceAndNoneMayBeHeld() {
    ResourceSlice s =
        slice("n1", device("d0", "model", "H100"), device("d1", "model", "H100"), device("x"));

    assertThat(allocate(List.of(s), Set.of(), claim("c", all("gpu", "model==H100"))))
        .isEqualTo(allocated("n1", "gpu", "d0", "gpu", "d1"));
    assertThat(
            allocate(List.of(s), Set.of(DRIVER + "/n1/d1"), claim("c", all("gpu", "model==H100"))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: allocationMode All needs every matching device, but 1 of 2 are"
                    + " allocated"));
  }

  @Test
  void firstAvailableFallsBackToItsSecondChoice() {
    ResourceSlice s = slice("n1", device("h0", "model", "H100"), device("a0", "model", "A100"));
    DeviceRequest gpu =
        DeviceRequest.firstAvailable(
            "gpu",
            ImmutableList.of(
                exactly("h100s", 2, "model==H100"), exactly("a100", 1, "model==A100")));

    assertThat(allocate(List.of(s), Set.of(), claim("c", List.of(gpu), List.of())))
        .isEqualTo(allocated("n1", "gpu/a100", "a0"));
  }

  @Test
  void matchAttributeOnNvlinkDomainForcesTwoGpusOfOneDomain() {
    String domain = DRIVER + "/nvlinkDomain";
    ResourceSlice s =
        slice(
            "n1",
            device("g0", "nvlinkDomain", "0"),
            device("g1", "nvlinkDomain", "1"),
            device("g2", "nvlinkDomain", "1"));
    DeviceRequest pair = DeviceRequest.exactly("pair", exactly("pair", 2));

    assertThat(
            allocate(
                List.of(s),
                Set.of(),
                claim(
                    "c", List.of(pair), List.of(new DeviceConstraint(ImmutableList.of(), domain)))))
        .isEqualTo(allocated("n1", "pair", "g1", "pair", "g2"));
  }

  @Test
  void matchAttributeAcrossRequestsBacktracksOverAnEarlierPick() {
    String domain = DRIVER + "/nvlinkDomain";
    ResourceSlice s =
        slice(
            "n1",
            device("g0", "nvlinkDomain", "0"),
            device("g1", "nvlinkDomain", "1"),
            device("g2", "nvlinkDomain", "1"));
    DeviceRequest first = DeviceRequest.exactly("a", exactly("a", 1));
    DeviceRequest second = DeviceRequest.exactly("b", exactly("b", 2));

    assertThat(
            allocate(
                List.of(s),
                Set.of(),
                claim(
                    "c",
                    List.of(first, second),
                    List.of(new DeviceConstraint(ImmutableList.of("a", "b"), domain)))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request b: no 2 matching free device(s) of class gpu.example.com fit together"
                    + " with the claims' other devices with one value of matchAttribute "
                    + domain));
    DeviceRequest single = DeviceRequest.exactly("b", exactly("b", 1));
    assertThat(
            allocate(
                List.of(s),
                Set.of(),
                claim(
                    "c",
                    List.of(first, single),
                    List.of(new DeviceConstraint(ImmutableList.of(), domain)))))
        .isEqualTo(allocated("n1", "a", "g1", "b", "g2"));
  }

  private static DraDevice tainted(String name, Taint... taints) {
    return new DraDevice(
        name,
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        Optional.empty(),
        ImmutableList.copyOf(taints),
        ImmutableList.of());
  }

  private static DeviceSubRequest tolerating(DeviceSubRequest request, Toleration... tolerations) {
    return new DeviceSubRequest(
        request.name(),
        request.deviceClassName(),
        request.selectors(),
        request.allocationMode(),
        request.count(),
        ImmutableList.copyOf(tolerations));
  }

  private static final Taint MAINTENANCE =
      new Taint("maintenance", "true", TaintEffect.NO_SCHEDULE);

  @Test
  void aDeviceWithATaintTheRequestDoesNotTolerateIsNotTaken() {
    ResourceSlice s = slice("n1", tainted("d0", MAINTENANCE), device("d1"));

    assertThat(allocate(List.of(s), Set.of(), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocated("n1", "gpu", "d1"));
    assertThat(allocate(List.of(s), Set.of(), claim("c", exactly("gpu", 2))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: needs 2 device(s) of class gpu.example.com, 1 matching device(s) are"
                    + " free, 1 have a taint the request does not tolerate (device"
                    + " gpu.example.com/n1/d0 has the taint maintenance=true:NoSchedule)"));
    assertThat(allocate(List.of(s), Set.of(), claim("c", all("gpu"))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: allocationMode All needs every matching device, but 1 of 2 have a"
                    + " taint the request does not tolerate (device gpu.example.com/n1/d0 has the"
                    + " taint maintenance=true:NoSchedule)"));
  }

  @Test
  void aToleratedTaintDoesNotKeepTheDeviceAndPreferNoScheduleNeverDoes() {
    Taint draining = new Taint("draining", "", TaintEffect.NO_EXECUTE);
    Taint soft = new Taint("busy", "", TaintEffect.PREFER_NO_SCHEDULE);
    ResourceSlice s =
        slice("n1", tainted("d0", MAINTENANCE), tainted("d1", draining), tainted("d2", soft));
    Toleration maintenance =
        new Toleration("maintenance", TolerationOperator.EQUAL, "true", Optional.empty());
    Toleration drainingOnly =
        new Toleration(
            "draining", TolerationOperator.EXISTS, "", Optional.of(TaintEffect.NO_EXECUTE));
    Toleration drainingWrongEffect =
        new Toleration(
            "draining", TolerationOperator.EXISTS, "", Optional.of(TaintEffect.NO_SCHEDULE));

    assertThat(
            allocate(
                List.of(s),
                Set.of(),
                claim("c", tolerating(exactly("gpu", 3), maintenance, drainingOnly))))
        .isEqualTo(allocated("n1", "gpu", "d0", "gpu", "d1", "gpu", "d2"));
    assertThat(
            allocate(
                List.of(s),
                Set.of(),
                claim("c", tolerating(exactly("gpu", 3), maintenance, drainingWrongEffect))))
        .isInstanceOf(AllocationOutcome.Failed.class);
  }

  private static final ResourceSlice PARTITIONED = Dra.partitionedGpu("n1");

  @Test
  void devicesThatShareCountersAreAllocatedOnlyWithinThem() {
    assertThat(allocate(List.of(PARTITIONED), Set.of(), claim("c", exactly("gpu", 2))))
        .isEqualTo(allocated("n1", "gpu", "half-0", "gpu", "half-1"));
    assertThat(allocate(List.of(PARTITIONED), Set.of(), claim("c", exactly("gpu", 3))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: no 3 matching free device(s) of class gpu.example.com fit together"
                    + " with the claims' other devices"));
  }

  @Test
  void countersHeldByOtherClaimsAreNotGivenAgain() {
    assertThat(
            allocate(
                List.of(PARTITIONED), Set.of(DRIVER + "/n1/half-1"), claim("c", exactly("gpu", 1))))
        .isEqualTo(allocated("n1", "gpu", "half-0"));
    assertThat(
            allocate(
                List.of(PARTITIONED),
                Set.of(DRIVER + "/n1/half-0", DRIVER + "/n1/half-1"),
                claim("c", exactly("gpu", 1))))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c",
                "request gpu: needs 1 device(s) of class gpu.example.com, 0 matching device(s) are"
                    + " free, 1 would overdraw the shared counters of their pool (device"
                    + " gpu.example.com/n1/whole would overdraw counter memory of counter set gpu-0"
                    + " in pool gpu.example.com/n1)"));
  }

  @Test
  void aCounterThePoolDoesNotDefineHoldsNothing() {
    ResourceSlice undefined =
        new ResourceSlice(
            "n1-partitions",
            DRIVER,
            new ResourcePool("n1", 1, 1),
            Optional.of(DeviceNodes.node("n1")),
            ImmutableList.of(Dra.partition("half-0", 40)),
            ImmutableList.of());

    assertThat(allocate(List.of(undefined), Set.of(), claim("c", exactly("gpu", 1))))
        .isInstanceOf(AllocationOutcome.Failed.class);
  }

  @Test
  void anUnknownDeviceClassFailsTheClaim() {
    ResourceSlice s = slice("n1", device("d0"));
    ResourceClaim c =
        claim(
            "c",
            new DeviceSubRequest(
                "gpu",
                "missing.example.com",
                ImmutableList.of(),
                AllocationMode.EXACT_COUNT,
                1,
                ImmutableList.of()));

    assertThat(allocate(List.of(s), Set.of(), c))
        .isEqualTo(
            new AllocationOutcome.Failed(
                "ns/c", "request gpu: device class missing.example.com does not exist"));
  }
}
