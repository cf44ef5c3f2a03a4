package io.gantry.deviceagent.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gantry.deviceagent.discovery.GpuDiscovery;
import io.gantry.deviceagent.inventory.GpuInventory;
import io.gantry.deviceagent.nvidiasmi.NvidiaSmi;
import io.gantry.deviceagent.testing.FakeNvidiaSmi;
import io.gantry.deviceagent.testing.Fixtures;
import io.gantry.fakekube.FakeDeviceManager;
import io.gantry.proto.deviceplugin.v1beta1.AllocateResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole-GPU device plugin against a fake kubelet over real Unix sockets: registration,
 * ListAndWatch, Allocate, re-registration after the kubelet restarts, a GPU going unhealthy.
 */
class DevicePluginKubeletTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String GPU = ResourceDevices.WHOLE_GPU;

  @TempDir Path tmp;

  private Path pluginDir;
  private FakeDeviceManager kubelet;
  private DevicePluginManager plugins;

  @BeforeEach
  void start() throws Exception {
    pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    kubelet = FakeDeviceManager.start(pluginDir);
    plugins = new DevicePluginManager(pluginDir, 4, Optional.empty());
    plugins.update(discover(Fixtures.HGX_H100));
    plugins.start();
  }

  @AfterEach
  void stop() {
    plugins.close();
    kubelet.close();
  }

  private GpuInventory discover(String fixture) throws Exception {
    Path executable =
        FakeNvidiaSmi.replaying(Files.createTempDirectory(tmp, "smi"), fixture).install();
    return new GpuDiscovery(NvidiaSmi.locate(executable.toString(), "", Duration.ofSeconds(10)))
        .discover();
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
  void registersAndStreamsEveryGpuHealthy() {
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);

    assertThat(kubelet.registrations())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.resourceName()).isEqualTo("nvidia.com/gpu");
              assertThat(r.endpoint()).isEqualTo("gantry-gpu.sock");
            });
    assertThat(kubelet.devices(GPU)).isEqualTo(allHealthy(8));
    assertThat(pluginDir.resolve("gantry-gpu.sock")).exists();
  }

  @Test
  void allocateOfAWholeGpuMakesExactlyThatGpuVisible() {
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);

    AllocateResponse response = kubelet.allocate(GPU, List.of(uuid(3), uuid(5)));

    assertThat(response.getContainerResponsesList())
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.getEnvsMap())
                    .isEqualTo(Map.of("NVIDIA_VISIBLE_DEVICES", uuid(3) + "," + uuid(5))));
  }

  @Test
  void allocateOfAGpuThisNodeDoesNotHaveIsRefused() {
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);

    assertThatThrownBy(() -> kubelet.allocate(GPU, List.of("GPU-elsewhere")))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo("unknown device GPU-elsewhere: this node has no such GPU");
            });
  }

  @Test
  void reRegistersAfterTheKubeletSocketIsCreatedAgain() {
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);

    kubelet.restart();

    await().atMost(WAIT).until(() -> kubelet.registrations().size() == 2);
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).equals(allHealthy(8)));
    assertThat(pluginDir.resolve("gantry-gpu.sock")).exists();
    assertThat(kubelet.allocate(GPU, List.of(uuid(0))).getContainerResponses(0).getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", uuid(0));
  }

  @Test
  void aGpuThatDisappearsIsStreamedUnhealthy() throws Exception {
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);
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
  }

  @Test
  void everyGpuIsUnhealthyWhileDiscoveryFailsAndHealthyWhenItWorksAgain() throws Exception {
    await().atMost(WAIT).until(() -> kubelet.devices(GPU).size() == 8);

    plugins.discoveryFailed("nvidia-smi -q -x exited with status 9");

    await()
        .atMost(WAIT)
        .until(() -> kubelet.devices(GPU).values().stream().allMatch("Unhealthy"::equals));

    plugins.update(discover(Fixtures.HGX_H100));

    await().atMost(WAIT).until(() -> kubelet.devices(GPU).equals(allHealthy(8)));
  }
}
