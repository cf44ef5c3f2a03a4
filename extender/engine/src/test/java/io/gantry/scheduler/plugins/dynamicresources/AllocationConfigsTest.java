package io.gantry.scheduler.plugins.dynamicresources;

import static io.gantry.scheduler.testing.Dra.device;
import static io.gantry.scheduler.testing.Dra.slice;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.dra.AllocationConfig;
import io.gantry.scheduler.model.dra.AllocationConfig.Source;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.ClaimConfig;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.testing.Dra;
import io.gantry.scheduler.testing.Nodes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code devices.config} of an allocation (protocols.md §4.5 item 6). */
class AllocationConfigsTest {
  private static final OpaqueConfig H100_DEFAULTS = opaque("{\"class\":\"h100\"}");
  private static final OpaqueConfig A100_DEFAULTS = opaque("{\"class\":\"a100\"}");
  private static final OpaqueConfig MPS = opaque("{\"computeMode\":\"mps\"}");
  private static final OpaqueConfig TIME_SLICING = opaque("{\"computeMode\":\"time-slicing\"}");

  private static final Map<String, DeviceClass> CLASSES =
      ImmutableMap.of(
          "h100",
          new DeviceClass("h100", ImmutableList.of("model==H100"), ImmutableList.of(H100_DEFAULTS)),
          "a100",
          new DeviceClass("a100", ImmutableList.of("model==A100"), ImmutableList.of(A100_DEFAULTS)),
          "plain",
          new DeviceClass("plain", ImmutableList.of("driver==" + Dra.DRIVER), ImmutableList.of()));

  private static OpaqueConfig opaque(String parametersJson) {
    return new OpaqueConfig(Dra.DRIVER, parametersJson);
  }

  private static DeviceSubRequest choice(String name, String deviceClass) {
    return new DeviceSubRequest(
        name, deviceClass, ImmutableList.of(), AllocationMode.EXACT_COUNT, 1, ImmutableList.of());
  }

  private static ResourceClaim claim(List<DeviceRequest> requests, ClaimConfig... config) {
    return new ResourceClaim(
        "ns",
        "c",
        ImmutableSortedMap.of(),
        ImmutableList.copyOf(requests),
        ImmutableList.of(),
        ImmutableList.copyOf(config),
        Optional.empty(),
        ImmutableList.of());
  }

  private static ClaimConfig claimConfig(OpaqueConfig opaque, String... requests) {
    return new ClaimConfig(ImmutableList.copyOf(requests), opaque);
  }

  private static AllocationConfig fromClass(OpaqueConfig opaque, String... requests) {
    return new AllocationConfig(Source.FROM_CLASS, ImmutableList.copyOf(requests), opaque);
  }

  private static AllocationConfig fromClaim(OpaqueConfig opaque, String... requests) {
    return new AllocationConfig(Source.FROM_CLAIM, ImmutableList.copyOf(requests), opaque);
  }

  private static ImmutableList<AllocationConfig> configs(
      ResourceClaim claim, DeviceSubRequest... chosen) {
    return AllocationConfigs.of(claim, List.of(chosen), CLASSES::get);
  }

  @Test
  void classConfigsComeFirstOncePerClassNamingEveryRequestOfItThenTheClaimsInItsOrder() {
    DeviceSubRequest train = choice("train", "h100");
    DeviceSubRequest infer = choice("infer", "a100");
    DeviceSubRequest eval = choice("eval", "h100");
    ResourceClaim claim =
        claim(
            List.of(
                DeviceRequest.exactly("train", train),
                DeviceRequest.exactly("infer", infer),
                DeviceRequest.exactly("eval", eval)),
            claimConfig(TIME_SLICING, "infer"),
            claimConfig(MPS));

    assertThat(configs(claim, train, infer, eval))
        .containsExactly(
            fromClass(H100_DEFAULTS, "train", "eval"),
            fromClass(A100_DEFAULTS, "infer"),
            fromClaim(TIME_SLICING, "infer"),
            fromClaim(MPS));
  }

  @Test
  void aClassWithoutConfigAndAClaimWithoutConfigGiveNone() {
    DeviceSubRequest gpu = choice("gpu", "plain");

    assertThat(configs(claim(List.of(DeviceRequest.exactly("gpu", gpu))), gpu)).isEmpty();
  }

  @Test
  void aClaimConfigNamingTwoRequestsIsPassedOnce() {
    DeviceSubRequest a = choice("a", "plain");
    DeviceSubRequest b = choice("b", "plain");
    ResourceClaim claim =
        claim(
            List.of(DeviceRequest.exactly("a", a), DeviceRequest.exactly("b", b)),
            claimConfig(MPS, "a", "b"));

    assertThat(configs(claim, a, b)).containsExactly(fromClaim(MPS, "a", "b"));
  }

  @Test
  void firstAvailableTakesTheChosenSubrequestsClassAndConfigsThatNameItOrItsRequest() {
    DeviceSubRequest h100 = choice("h100", "h100");
    DeviceSubRequest a100 = choice("a100", "a100");
    ResourceClaim claim =
        claim(
            List.of(DeviceRequest.firstAvailable("gpu", ImmutableList.of(h100, a100))),
            claimConfig(MPS, "gpu/h100"),
            claimConfig(TIME_SLICING, "gpu/a100"),
            claimConfig(H100_DEFAULTS, "gpu"));

    assertThat(configs(claim, a100))
        .containsExactly(
            fromClass(A100_DEFAULTS, "gpu/a100"),
            fromClaim(TIME_SLICING, "gpu/a100"),
            fromClaim(H100_DEFAULTS, "gpu"));
  }

  @Test
  void theAllocatorsResultCarriesTheConfigOfTheChoiceItFellBackTo() {
    NodeInfo n1 = Nodes.node("n1").build();
    DeviceSubRequest h100 =
        new DeviceSubRequest(
            "h100", "h100", ImmutableList.of(), AllocationMode.EXACT_COUNT, 2, ImmutableList.of());
    DeviceSubRequest a100 = choice("a100", "a100");
    ResourceClaim claim =
        claim(
            List.of(DeviceRequest.firstAvailable("gpu", ImmutableList.of(h100, a100))),
            claimConfig(MPS, "gpu/h100"),
            claimConfig(TIME_SLICING, "gpu/a100"));
    List<ResourceSlice> slices =
        List.of(slice("n1", device("h0", "model", "H100"), device("a0", "model", "A100")));
    ClaimAllocator allocator =
        new ClaimAllocator(
            List.of(claim),
            new DevicePools(slices).reachableFrom(n1),
            Set.of(),
            new CounterBudget(slices),
            new DeviceMatcher(Dra.SELECTORS, CLASSES));

    AllocationOutcome outcome = allocator.allocate();

    assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
    assertThat(((AllocationOutcome.Allocated) outcome).results().get(0).config())
        .containsExactly(fromClass(A100_DEFAULTS, "gpu/a100"), fromClaim(TIME_SLICING, "gpu/a100"));
  }
}
