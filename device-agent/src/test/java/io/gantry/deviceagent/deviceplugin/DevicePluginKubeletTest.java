package io.gantry.deviceagent.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.metrics.DeviceAgentMetrics;
import io.gantry.deviceagent.mps.MpsAllocations;
import io.gantry.deviceagent.mps.MpsControl;
import io.gantry.deviceagent.mps.MpsDaemons;
import io.gantry.deviceagent.mps.MpsWatch;
import io.gantry.deviceagent.testing.FakeMpsControl;
import io.gantry.deviceagent.testing.SharedGpuPods;
import io.gantry.fakekube.FakeDeviceManager;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.proto.deviceplugin.v1beta1.AllocateResponse;
import io.gantry.proto.deviceplugin.v1beta1.CDIDevice;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementAction;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.SharingMechanism;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device plugins against a fake kubelet over real Unix sockets and the fake API server:
 * registration, ListAndWatch, Allocate of whole GPUs and of fractions through the
 * gantry.io/gpu-allocation contract, re-registration after the kubelet restarts, a GPU going
 * unhealthy.
 */
class DevicePluginKubeletTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String GPU = ResourceDevices.WHOLE_GPU;
  private static final String SHARE = ResourceDevices.GPU_SHARE;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private Path pluginDir;
  private FakeKubeServer kube;
  private FakeDeviceManager kubelet;
  private DevicePluginManager plugins;
  private final List<GpuHealthChange> healthChanges = new CopyOnWriteArrayList<>();
  private final List<EnforcementEvent> enforced = new CopyOnWriteArrayList<>();
  private SimpleMeterRegistry registry;

  @BeforeEach
  void start() throws Exception {
    start(DeviceNaming.UUID);
  }

  private void start(DeviceNaming naming) throws Exception {
    start(naming, Optional.empty());
  }

  private void start(DeviceNaming naming, Optional<MpsAllocations> mps) throws Exception {
    pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    kube = FakeKubeServer.start();
    kubelet = FakeDeviceManager.start(pluginDir);
    registry = new SimpleMeterRegistry();
    plugins =
        new DevicePluginManager(
            pluginDir,
            4,
            new NodePods(ApiClients.forUrl(kube.url()), "gpu-0"),
            naming,
            mps,
            healthChanges::add,
            new DeviceAgentMetrics(registry, "gpu-0"));
    plugins.update(discover(Fixtures.HGX_H100));
    plugins.start();
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);
  }

  @AfterEach
  void stop() {
    plugins.close();
    kubelet.close();
    kube.close();
  }

  /** The value of the agent's gauge {@code name} with {@code tags} (besides node gpu-0). */
  private double gauge(String name, String... tags) {
    return registry
        .get(DeviceAgentMetrics.PREFIX + name)
        .tags("node", "gpu-0")
        .tags(tags)
        .gauge()
        .value();
  }

  /** Containers Allocate answered for {@code resource} with {@code result}. */
  private double allocations(String resource, String result) {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "allocations")
        .tags("node", "gpu-0", "resource", resource, "result", result)
        .counter()
        .count();
  }

  /** A pod bound to gpu-0 and still pending (no kubelet runs it), asking for {@code resource}. */
  private void pendingPod(String name, String resource, int count, GpuAllocation allocation) {
    ObjectNode pod = JSON.createObjectNode();
    pod.put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata").put("name", name).put("namespace", "default");
    meta.putObject("annotations")
        .put(GpuAllocation.ANNOTATION, GpuAllocationJson.write(allocation));
    ObjectNode container = pod.putObject("spec").putArray("containers").addObject();
    container.put("name", "main").put("image", "cuda");
    container.putObject("resources").putObject("limits").put(resource, Integer.toString(count));
    kube.store().create(pod);
    SharedGpuPods.bindToGpu0(kube, name);
  }

  private GpuAllocation recorded(String name) {
    return GpuAllocationJson.read(
        kube.store()
            .get(ResourceKinds.PODS, "default", name)
            .orElseThrow()
            .path("metadata")
            .path("annotations")
            .path(GpuAllocation.ANNOTATION)
            .asText());
  }

  private static GpuAllocation fraction(int hundredths, ComputeMode mode, String group) {
    return GpuAllocation.shared("gpu-0", GpuAmount.ofHundredths(hundredths), mode, List.of(group));
  }

  private GpuInventory discover(String fixture) throws Exception {
    Path executable =
        FakeNvidiaSmi.replaying(Files.createTempDirectory(tmp, "smi"), fixture).install();
    return new GpuDiscovery(NvidiaSmi.locate(executable.toString(), "", Duration.ofSeconds(10)))
        .discover();
  }

  /** MPS daemons run by {@code fake}, with pipes and logs under mps-pipes and mps-logs. */
  private MpsDaemons mpsDaemons(FakeMpsControl fake) throws Exception {
    return new MpsDaemons(
        MpsControl.locate(
            fake.executable().toString(),
            "",
            tmp.resolve("mps-pipes"),
            tmp.resolve("mps-logs"),
            Duration.ofSeconds(10)),
        Clock.systemUTC());
  }

  private static String uuid(int index) {
    return String.format("GPU-%08d-0000-0000-0000-%012d", index, index);
  }

  private static Map<String, String> allHealthy(int gpus) {
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < gpus; i++) {
      expected.put(uuid(i), "Healthy");
    }
    return expected;
  }

  @Test
  void registersBothResourcesAndStreamsEveryGpuHealthy() {
    await().atMost(WAIT).until(() -> kubelet.devices(SHARE).size() == 32);

    assertThat(kubelet.registrations())
        .extracting(r -> r.resourceName() + " at " + r.endpoint())
        .containsExactly(
            "nvidia.com/gpu at gantry-gpu.sock", "gantry.io/gpu-share at gantry-gpu-share.sock");
    assertThat(kubelet.devices(GPU)).isEqualTo(allHealthy(8));
    assertThat(kubelet.devices(SHARE)).containsEntry(uuid(7) + "::3", "Healthy");
    assertThat(gauge("gpus", "model", "NVIDIA H100 80GB HBM3")).isEqualTo(8.0);
    assertThat(gauge("gpu.healthy", "gpu_uuid", uuid(7), "gpu_index", "7")).isEqualTo(1.0);
  }

  @Test
  void allocateOfWholeGpusGivesTheContractsEnvAndRecordsTheGpusOnThePod() {
    pendingPod("trainer", GPU, 2, GpuAllocation.whole("gpu-0", 2));

    AllocateResponse response = kubelet.allocate(GPU, List.of(uuid(3), uuid(5)));

    assertThat(response.getContainerResponsesList())
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.getEnvsMap())
                    .isEqualTo(
                        Map.of(
                            "NVIDIA_VISIBLE_DEVICES", uuid(3) + "," + uuid(5),
                            "GPU_PORTION", "1.00",
                            "RUNAI_NUM_OF_GPUS", "2")));
    assertThat(recorded("trainer").devices())
        .extracting(AssignedGpu::uuid)
        .containsExactly(uuid(3), uuid(5));
    assertThat(allocations(GPU, "allocated")).isEqualTo(1.0);
    assertThat(
            registry
                .find(DeviceAgentMetrics.PREFIX + "allocations")
                .tag("result", "refused")
                .counters())
        .isEmpty();
  }

  @Test
  void theKubeletPrefersTheGpusTheSchedulerChoseAndAllocateGivesExactlyThose() {
    pendingPod("trainer", GPU, 4, GpuAllocation.wholeChosen("gpu-0", List.of(0, 2, 4, 6)));

    AllocateResponse response = kubelet.admit(GPU, 4);

    assertThat(kubelet.registrations())
        .extracting(r -> r.resourceName(), r -> r.options().getGetPreferredAllocationAvailable())
        .containsExactly(tuple(GPU, true), tuple(SHARE, false));
    assertThat(response.getContainerResponses(0).getEnvsMap())
        .containsEntry(
            "NVIDIA_VISIBLE_DEVICES", String.join(",", uuid(0), uuid(2), uuid(4), uuid(6)));
    assertThat(recorded("trainer").devices())
        .extracting(AssignedGpu::index)
        .containsExactly(0, 2, 4, 6);
  }

  @Test
  void withoutAChoiceTheKubeletPicksAsItWould() {
    pendingPod("trainer", GPU, 4, GpuAllocation.whole("gpu-0", 4));

    kubelet.admit(GPU, 4);

    // the kubelet's own pick: the first four device ids (UUIDs) in order
    assertThat(recorded("trainer").devices())
        .extracting(AssignedGpu::uuid)
        .containsExactlyInAnyOrderElementsOf(
            kubelet.devices(GPU).keySet().stream().limit(4).toList());
  }

  @Test
  void whenTheKubeletGaveOtherGpusThanTheChosenOnesTheKubeletsStand() {
    pendingPod("trainer", GPU, 2, GpuAllocation.wholeChosen("gpu-0", List.of(0, 1)));

    AllocateResponse response = kubelet.allocate(GPU, List.of(uuid(3), uuid(5)));

    assertThat(response.getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid(3) + "," + uuid(5));
    GpuAllocation recorded = recorded("trainer");
    assertThat(recorded.chosenDevices()).containsExactly(0, 1);
    assertThat(recorded.devices()).extracting(AssignedGpu::index).containsExactly(3, 5);
  }

  @Test
  void allocateOfAWholeGpuWithoutAPodStillGivesTheKubeletsChoice() {
    AllocateResponse response = kubelet.allocate(GPU, List.of(uuid(4)));

    assertThat(response.getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid(4))
        .containsEntry("RUNAI_NUM_OF_GPUS", "1");
  }

  @Test
  void allocateOfAFractionGivesTheContractsLimitsOnTheGroupsGpu() {
    pendingPod("half", SHARE, 1, fraction(50, ComputeMode.MPS, "gpu-0-gpu0"));

    AllocateResponse response = kubelet.allocate(SHARE, List.of(uuid(6) + "::2"));

    ContainerAllocateResponse c = response.getContainerResponses(0);
    assertThat(c.getEnvsMap())
        .isEqualTo(
            Map.of(
                "NVIDIA_VISIBLE_DEVICES", uuid(0),
                "GPU_PORTION", "0.50",
                "RUNAI_NUM_OF_GPUS", "0.50",
                "CUDA_DEVICE_MEMORY_LIMIT", "40779m",
                "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "0=40779M",
                "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "50",
                "CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps"));
    assertThat(c.getMountsList())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.getHostPath()).isEqualTo("/tmp/nvidia-mps");
              assertThat(m.getContainerPath()).isEqualTo("/tmp/nvidia-mps");
            });
    assertThat(recorded("half").devices()).extracting(AssignedGpu::uuid).containsExactly(uuid(0));
  }

  @Test
  void withMpsDaemonsAnMpsFractionStartsItsGpusDaemonAndMountsItsPipeDirectory() throws Exception {
    stop();
    FakeMpsControl fake = FakeMpsControl.install(Files.createDirectories(tmp.resolve("mps-bin")));
    Path pipes = tmp.resolve("mps-pipes");
    MpsDaemons daemons = mpsDaemons(fake);
    start(DeviceNaming.UUID, Optional.of(new MpsAllocations(daemons, enforced::add)));
    pendingPod("half", SHARE, 1, fraction(50, ComputeMode.MPS, "gpu-0-gpu0"));

    ContainerAllocateResponse c =
        kubelet.allocate(SHARE, List.of(uuid(6) + "::2")).getContainerResponses(0);

    assertThat(c.getEnvsMap()).containsEntry("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps");
    assertThat(c.getMountsList())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.getHostPath()).isEqualTo(pipes.resolve(uuid(0)).toString());
              assertThat(m.getContainerPath()).isEqualTo("/tmp/nvidia-mps");
            });
    assertThat(fake.calls())
        .extracting(FakeMpsControl.Call::gpuUuid, FakeMpsControl.Call::args)
        .containsExactly(tuple(uuid(0), "-d"), tuple(uuid(0), ""));
    assertThat(fake.calls().get(1).stdin())
        .containsExactly(
            "set_default_active_thread_percentage 50",
            "set_default_device_pinned_mem_limit 0 40779M");
    assertThat(daemons.running()).containsExactly(uuid(0));
    String uid =
        kube.store()
            .get(ResourceKinds.PODS, "default", "half")
            .orElseThrow()
            .path("metadata")
            .path("uid")
            .asText();
    assertThat(enforced)
        .containsExactly(
            EnforcementEvent.newBuilder()
                .setPodNamespace("default")
                .setPodName("half")
                .setPodUid(uid)
                .setGpuUuid(uuid(0))
                .setMechanism(SharingMechanism.SHARING_MECHANISM_MPS)
                .setAction(EnforcementAction.ENFORCEMENT_ACTION_LIMIT_APPLIED)
                .setMemoryLimitMib(40779)
                .setMessage(
                    "pod default/half uses the MPS daemon of GPU "
                        + uuid(0)
                        + " with 50% of its SM threads and 40779 MiB of pinned memory")
                .build());

    // the pod finishes: the next round of upkeep quits its GPU's daemon
    ObjectNode pod = kube.store().get(ResourceKinds.PODS, "default", "half").orElseThrow();
    (pod.has("status") ? (ObjectNode) pod.get("status") : pod.putObject("status"))
        .put("phase", "Succeeded");
    kube.store().updateStatus(ResourceKinds.PODS, "default", "half", pod);
    new MpsWatch(new NodePods(ApiClients.forUrl(kube.url()), "gpu-0"), daemons).runOnce();

    assertThat(fake.calls().get(fake.calls().size() - 1).stdin()).containsExactly("quit");
    assertThat(daemons.running()).isEmpty();
  }

  @Test
  void anMpsDaemonThatCannotStartFailsAllocateAndLeavesThePodUnresolved() throws Exception {
    stop();
    FakeMpsControl fake = FakeMpsControl.install(Files.createDirectories(tmp.resolve("mps-bin")));
    fake.failStarts(true);
    MpsDaemons daemons = mpsDaemons(fake);
    start(DeviceNaming.UUID, Optional.of(new MpsAllocations(daemons, enforced::add)));
    pendingPod("half", SHARE, 1, fraction(50, ComputeMode.MPS, "gpu-0-gpu0"));

    assertThatThrownBy(() -> kubelet.allocate(SHARE, List.of(uuid(0) + "::0")))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e ->
                assertThat(e.getStatus().getDescription())
                    .isEqualTo(
                        "nvidia-cuda-mps-control -d for GPU "
                            + uuid(0)
                            + " exited with status 1: cannot start the MPS control daemon"));
    assertThat(recorded("half").isResolved()).isFalse();
    assertThat(enforced).isEmpty();
  }

  @Test
  void aGroupKeepsItsGpuAndANewGroupTakesAFreeOne() {
    pendingPod("a", SHARE, 1, fraction(30, ComputeMode.TIME_SLICING, "gpu-0-gpu0"));
    kubelet.allocate(SHARE, List.of(uuid(0) + "::0"));
    pendingPod("b", SHARE, 1, fraction(30, ComputeMode.TIME_SLICING, "gpu-0-gpu0"));
    pendingPod("c", SHARE, 1, fraction(30, ComputeMode.TIME_SLICING, "gpu-0-gpu1"));

    assertThat(
            kubelet.allocate(SHARE, List.of(uuid(0) + "::1")).getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid(0));
    assertThat(
            kubelet.allocate(SHARE, List.of(uuid(0) + "::2")).getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid(1));
    assertThat(recorded("b").devices()).extracting(AssignedGpu::uuid).containsExactly(uuid(0));
    assertThat(recorded("c").devices()).extracting(AssignedGpu::uuid).containsExactly(uuid(1));
  }

  @Test
  void aFractionWithoutAPendingPodIsRefused() {
    assertThatThrownBy(() -> kubelet.allocate(SHARE, List.of(uuid(0) + "::0")))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e ->
                assertThat(e.getStatus().getDescription())
                    .isEqualTo(
                        "no pending pod on node gpu-0 asks for gantry.io/gpu-share with an"
                            + " unresolved gantry.io/gpu-allocation"));
  }

  @Test
  void withCdiNamingTheContainerGetsCdiDevices() throws Exception {
    stop();
    start(DeviceNaming.CDI);
    pendingPod("half", SHARE, 1, fraction(50, ComputeMode.TIME_SLICING, "gpu-0-gpu0"));

    ContainerAllocateResponse c =
        kubelet.allocate(SHARE, List.of(uuid(0) + "::0")).getContainerResponses(0);

    assertThat(c.getCdiDevicesList())
        .extracting(CDIDevice::getName)
        .containsExactly("k8s.device-plugin.nvidia.com/gpu=" + uuid(0));
    assertThat(c.getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", "k8s.device-plugin.nvidia.com/gpu=" + uuid(0));
  }

  @Test
  void allocateOfAGpuThisNodeDoesNotHaveIsRefused() {
    assertThatThrownBy(() -> kubelet.allocate(GPU, List.of("GPU-elsewhere")))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo("unknown device GPU-elsewhere: this node has no such GPU");
            });
    assertThat(allocations(GPU, "refused")).isEqualTo(1.0);
  }

  @Test
  void reRegistersAfterTheKubeletSocketIsCreatedAgain() {

    kubelet.restart();

    await().atMost(WAIT).until(() -> kubelet.registrations().size() == 4);
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).equals(allHealthy(8)));
    assertThat(pluginDir.resolve("gantry-gpu.sock")).exists();
    assertThat(kubelet.allocate(GPU, List.of(uuid(0))).getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid(0));
  }

  @Test
  void aGpuThatDisappearsIsStreamedUnhealthy() throws Exception {
    GpuInventory full = discover(Fixtures.HGX_H100);
    GpuInventory withoutGpu7 =
        new GpuInventory(
            full.driverVersion(),
            full.cudaVersion(),
            full.devices().subList(0, 7),
            false,
            List.of(),
            List.of());

    plugins.update(withoutGpu7);

    Map<String, String> expected = allHealthy(8);
    expected.put(uuid(7), "Unhealthy");
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).equals(expected));
    assertThat(healthChanges)
        .containsExactly(
            new GpuHealthChange(
                7,
                uuid(7),
                HealthStatus.HEALTHY,
                new GpuHealth(HealthStatus.UNHEALTHY, List.of(GpuHealthTracker.NOT_LISTED))));
    assertThat(plugins.reportedInventory().orElseThrow().devices()).hasSize(7);
    // discovery lists 7; the kubelet still hears of 8, the missing one unhealthy
    assertThat(gauge("gpus", "model", "NVIDIA H100 80GB HBM3")).isEqualTo(7.0);
    assertThat(gauge("gpu.healthy", "gpu_uuid", uuid(7), "gpu_index", "7")).isZero();
    assertThat(gauge("gpu.healthy", "gpu_uuid", uuid(6), "gpu_index", "6")).isEqualTo(1.0);
  }

  @Test
  void everyGpuIsUnhealthyWhileDiscoveryFailsAndHealthyWhenItWorksAgain() throws Exception {

    plugins.discoveryFailed("nvidia-smi -q -x exited with status 9");

    await()
        .atMost(WAIT)
        .until(() -> kubelet.devices(GPU).values().stream().allMatch("Unhealthy"::equals));
    GpuHealth failed =
        new GpuHealth(HealthStatus.UNHEALTHY, List.of("nvidia-smi -q -x exited with status 9"));
    assertThat(healthChanges)
        .hasSize(8)
        .allSatisfy(c -> assertThat(c.health()).isEqualTo(failed))
        .extracting(GpuHealthChange::gpuIndex)
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(plugins.reportedInventory().orElseThrow().devices())
        .extracting(GpuDevice::health)
        .containsOnly(failed);
    assertThat(registry.find(DeviceAgentMetrics.PREFIX + "gpu.healthy").gauges())
        .hasSize(8)
        .allSatisfy(g -> assertThat(g.value()).isZero());

    plugins.update(discover(Fixtures.HGX_H100));

    await().atMost(WAIT).until(() -> kubelet.devices(GPU).equals(allHealthy(8)));
    assertThat(healthChanges.subList(8, healthChanges.size()))
        .hasSize(8)
        .allSatisfy(
            c -> {
              assertThat(c.previousStatus()).isEqualTo(HealthStatus.UNHEALTHY);
              assertThat(c.health()).isEqualTo(GpuHealth.HEALTHY);
            });
    assertThat(registry.find(DeviceAgentMetrics.PREFIX + "gpu.healthy").gauges())
        .hasSize(8)
        .allSatisfy(g -> assertThat(g.value()).isEqualTo(1.0));
  }
}
