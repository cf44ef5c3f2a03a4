package io.gantry.deviceagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.nodecommon.nvml.JnaNvml;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvml;
import io.gantry.nodecommon.testing.Fixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs {@code gantry-device-agent discover} in-process with a fake nvidia-smi on PATH. */
class DiscoverCommandTest {
  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  /** NVML as on a machine without the driver's library (or with the given fake). */
  private NvmlSession.Loader nvml = () -> JnaNvml.load("libnvidia-ml-absent.so.1");

  private Run run(String path, String... args) {
    CommandLine cli = DeviceAgentCli.commandLine(Map.of("PATH", path), new CountDownLatch(1), nvml);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void jsonForTheHgxH100ListsEightDevicesAndOneNvlinkDomain() throws Exception {
    FakeNvidiaSmi.replaying(tmp, Fixtures.HGX_H100).install();

    Run run = run("/usr/bin:" + tmp, "discover", "--output", "json");

    assertThat(run.status()).isZero();
    assertThat(run.err()).isEmpty();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("gpuCount").asInt()).isEqualTo(8);
    assertThat(json.get("devices")).hasSize(8);
    assertThat(json.get("devices").get(7).get("uuid").asText())
        .isEqualTo("GPU-00000007-0000-0000-0000-000000000007");
    assertThat(json.get("devices").get(0).get("memoryMib").asLong()).isEqualTo(81559);
    assertThat(json.get("nvlinkDomains")).hasSize(1);
    assertThat(json.get("nvlinkDomains").get(0).get("gpuIndices")).hasSize(8);
    assertThat(json.get("nvlinkDomains").get(0).get("allToAll").asBoolean()).isTrue();
    assertThat(json.get("linkMatrixAvailable").asBoolean()).isFalse();
  }

  @Test
  void theSameMachinePrintsTheSameBytes() {
    FakeNvidiaSmi.replaying(tmp, Fixtures.GB200).install();

    assertThat(run(tmp.toString(), "discover", "--output", "json"))
        .isEqualTo(run(tmp.toString(), "discover", "--output", "json"));
    assertThat(run(tmp.toString(), "discover")).isEqualTo(run(tmp.toString(), "discover"));
  }

  @Test
  void textIsTheDefault() {
    FakeNvidiaSmi.replaying(tmp, Fixtures.TESLA_T4).install();

    Run run = run(tmp.toString(), "discover");

    assertThat(run.status()).isZero();
    assertThat(run.out()).startsWith("NVIDIA driver 595.91.07, CUDA 13.2: 1 GPU\n");
    assertThat(run.out()).contains("Tesla T4").contains("15360 MiB");
  }

  @Test
  void anExplicitNvidiaSmiPathIsUsed() {
    Path smi = FakeNvidiaSmi.replaying(tmp, Fixtures.A10G).install();

    Run run = run("", "discover", "--nvidia-smi", smi.toString());

    assertThat(run.status()).isZero();
    assertThat(run.out()).contains("NVIDIA A10G");
  }

  @Test
  void withoutNvidiaSmiItSaysSoAndExitsOne() {
    Run run = run(tmp.toString(), "discover");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("no NVIDIA GPU found: nvidia-smi is not on PATH\n");
  }

  @Test
  void whenNvidiaSmiFindsNoDeviceItExitsOne() {
    FakeNvidiaSmi.in(tmp).fail("-q -x", 6, "No devices were found\n", "").install();

    Run run = run(tmp.toString(), "discover", "--output", "json");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo("nvidia-smi -q -x exited with status 6: No devices were found\n");
  }

  @Test
  void anEmptyGpuListExitsOne() {
    FakeNvidiaSmi.in(tmp)
        .answer(
            "-q -x",
            "<nvidia_smi_log><driver_version>580.1</driver_version>"
                + "<attached_gpus>0</attached_gpus></nvidia_smi_log>\n")
        .install();

    Run run = run(tmp.toString(), "discover");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("no NVIDIA GPU found: nvidia-smi reports no devices\n");
  }

  @Test
  void unreadableOutputExitsThreeNamingTheField() {
    FakeNvidiaSmi.in(tmp)
        .answer(
            "-q -x",
            Fixtures.read(Fixtures.TESLA_T4)
                .replaceFirst("<total>15360 MiB</total>", "<total>N/A</total>"))
        .install();

    Run run = run(tmp.toString(), "discover");

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err())
        .isEqualTo(
            "nvidia-smi -q -x: gpu 00000000:00:1E.0: fb_memory_usage/total: is N/A, a value is required\n");
  }

  @Test
  void randomBytesFromNvidiaSmiExitThreeAsTheDocsSay() throws Exception {
    FakeNvidiaSmi.in(tmp).answer("-q -x", "").install();
    // random bytes that are not UTF-8 (0xFF never occurs in it), in place of the XML answer
    byte[] noise = new byte[4096];
    new Random(24).nextBytes(noise);
    noise[0] = (byte) 0xFF;
    Files.write(tmp.resolve("answer-0.out"), noise);

    Run run = run(tmp.toString(), "discover");

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err()).isEqualTo("nvidia-smi -q -x: the output is not UTF-8 text\n");
  }

  @Test
  void badOptionsExitTwo() {
    assertThat(run(tmp.toString(), "discover", "--output", "yaml").status()).isEqualTo(2);
    Run zero = run(tmp.toString(), "discover", "--timeout", "0");
    assertThat(zero.status()).isEqualTo(2);
    assertThat(zero.err()).startsWith("--timeout must be at least 1 second, got 0");
    assertThat(run(tmp.toString()).status()).isEqualTo(2);
  }

  @Test
  void withNvmlTheInventoryComesFromNvmlWithoutNvidiaSmi() throws Exception {
    FakeNvml fake = FakeNvml.replaying(Fixtures.HGX_H100);
    nvml = () -> fake;

    Run run = run(tmp.toString(), "discover", "--output", "json");

    assertThat(run.status()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("gpuCount").asInt()).isEqualTo(8);
    assertThat(json.get("nvlinkDomains")).hasSize(1);
    assertThat(fake.inits()).isEqualTo(1);
    assertThat(fake.shutdowns()).isEqualTo(1);
  }

  @Test
  void nvmlAndNvidiaSmiPrintTheSameBytes() {
    FakeNvidiaSmi.replaying(tmp, Fixtures.GB200).install();
    Run smi = run(tmp.toString(), "discover", "--output", "json", "--discovery", "nvidia-smi");
    nvml = () -> FakeNvml.replaying(Fixtures.GB200);

    Run viaNvml = run(tmp.toString(), "discover", "--output", "json", "--discovery", "nvml");

    assertThat(viaNvml).isEqualTo(smi);
  }

  @Test
  void discoveryNvmlWithoutTheLibraryExitsOneNamingIt() {
    FakeNvidiaSmi.replaying(tmp, Fixtures.TESLA_T4).install();

    Run run = run(tmp.toString(), "discover", "--discovery", "nvml");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("NVML is not available: libnvidia-ml-absent.so.1 could not be loaded (");
  }

  @Test
  void discoveryAutoWithoutTheLibraryFallsBackToNvidiaSmi() {
    FakeNvidiaSmi.replaying(tmp, Fixtures.TESLA_T4).install();

    Run run = run(tmp.toString(), "discover", "--discovery", "auto");

    assertThat(run.status()).isZero();
    assertThat(run.out()).contains("Tesla T4");
  }

  @Test
  void discoveryNvidiaSmiDoesNotLoadNvml() {
    FakeNvidiaSmi.replaying(tmp, Fixtures.TESLA_T4).install();
    nvml =
        () -> {
          throw new AssertionError("NVML was loaded");
        };

    assertThat(run(tmp.toString(), "discover", "--discovery", "nvidia-smi").status()).isZero();
  }

  @Test
  void anUnknownDiscoveryExitsTwoNamingTheOption() {
    Run run = run(tmp.toString(), "discover", "--discovery", "dcgm");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("--discovery must be auto, nvml or nvidia-smi, got 'dcgm'");
  }
}
