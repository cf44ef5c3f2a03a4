package io.gantry.deviceagent.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.gpusharing.inventory.json.InventoryFormatException;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InventoryAnnotationTest {
  @TempDir Path tmp;

  private GpuInventory discover(String fixture) throws Exception {
    Path executable =
        FakeNvidiaSmi.replaying(Files.createDirectories(tmp.resolve(fixture)), fixture).install();
    return new GpuDiscovery(NvidiaSmi.locate(executable.toString(), "", Duration.ofSeconds(10)))
        .discover();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        Fixtures.HGX_H100,
        Fixtures.GB200,
        Fixtures.A100_40GB,
        Fixtures.A100_80GB_MIG,
        Fixtures.A10G,
        Fixtures.RTX_3060,
        Fixtures.TESLA_T4
      })
  void everyFixtureRoundTripsToTheSameInventoryAndBytes(String fixture) throws Exception {
    GpuInventory inventory = discover(fixture);
    String json = new InventoryAnnotation(inventory).toJson();

    InventoryAnnotation parsed = InventoryAnnotation.parse(json);

    assertThat(parsed.inventory()).isEqualTo(inventory);
    assertThat(parsed.toJson()).isEqualTo(json);
    assertThat(json).startsWith("{\"version\":1,\"driverVersion\":").doesNotContain("\n");
  }

  @Test
  void linksAndDomainsOfTheDgx1MatrixRoundTrip() throws Exception {
    // No DGX-1 -q -x was recorded; the HGX H100's 8 GPUs make the 8-GPU DGX-1 matrix acceptable.
    Path dir = Files.createDirectories(tmp.resolve("dgx1"));
    Path executable =
        FakeNvidiaSmi.in(dir)
            .answer("-q -x", Fixtures.read(Fixtures.HGX_H100))
            .answer("topo -m", Fixtures.read(Fixtures.TOPO_DGX1))
            .install();
    GpuInventory inventory =
        new GpuDiscovery(NvidiaSmi.locate(executable.toString(), "", Duration.ofSeconds(10)))
            .discover();
    assertThat(inventory.gpuLinks()).hasSize(28);

    assertThat(InventoryAnnotation.parse(new InventoryAnnotation(inventory).toJson()).inventory())
        .isEqualTo(inventory);
  }

  @Test
  void emptyValueIsRefused() {
    assertThatThrownBy(() -> InventoryAnnotation.parse(" "))
        .isInstanceOf(InventoryFormatException.class)
        .hasMessage("gantry.io/gpu-inventory: empty, expected a JSON object");
  }

  @Test
  void malformedJsonIsRefused() {
    assertThatThrownBy(() -> InventoryAnnotation.parse("{\"version\":1,"))
        .isInstanceOf(InventoryFormatException.class)
        .hasMessageStartingWith("gantry.io/gpu-inventory: not JSON: ");
  }

  @Test
  void aJsonArrayIsRefused() {
    assertThatThrownBy(() -> InventoryAnnotation.parse("[1]"))
        .hasMessage("gantry.io/gpu-inventory: expected a JSON object, got array");
  }

  @Test
  void foreignObjectWithoutVersionIsRefused() {
    assertThatThrownBy(() -> InventoryAnnotation.parse("{\"gpus\":8}"))
        .hasMessage(
            "gantry.io/gpu-inventory: version: missing or not an integer (this build reads"
                + " version 1)");
  }

  @Test
  void anotherVersionIsRefused() {
    assertThatThrownBy(() -> InventoryAnnotation.parse("{\"version\":2}"))
        .hasMessage(
            "gantry.io/gpu-inventory: version: unsupported version 2 (this build reads version"
                + " 1)");
  }

  @Test
  void aWrongFieldIsNamedWithItsPath() throws Exception {
    String json = new InventoryAnnotation(discover(Fixtures.HGX_H100)).toJson();

    assertThatThrownBy(
            () ->
                InventoryAnnotation.parse(
                    json.replace("\"memoryMib\":81559", "\"memoryMib\":\"80 GB\"")))
        .hasMessage(
            "gantry.io/gpu-inventory: devices[0].memoryMib: expected an integer, got \"80 GB\"");
  }

  @Test
  void aMissingFieldIsNamed() throws Exception {
    String json = new InventoryAnnotation(discover(Fixtures.TESLA_T4)).toJson();

    assertThatThrownBy(
            () -> InventoryAnnotation.parse(json.replaceFirst("\"uuid\":\"GPU-[^\"]*\",", "")))
        .hasMessage("gantry.io/gpu-inventory: devices[0].uuid: missing");
  }

  @Test
  void anUnknownEnumValueListsTheKnownOnes() throws Exception {
    String json = new InventoryAnnotation(discover(Fixtures.TESLA_T4)).toJson();

    assertThatThrownBy(
            () ->
                InventoryAnnotation.parse(
                    json.replace("\"migMode\":\"unsupported\"", "\"migMode\":\"maybe\"")))
        .hasMessage(
            "gantry.io/gpu-inventory: devices[0].migMode: expected one of unsupported, disabled,"
                + " enabled, got \"maybe\"");
  }

  @Test
  void aValueTheRecordsRefuseIsNamed() throws Exception {
    String json = new InventoryAnnotation(discover(Fixtures.TESLA_T4)).toJson();

    assertThatThrownBy(
            () ->
                InventoryAnnotation.parse(json.replace("\"memoryMib\":15360", "\"memoryMib\":-1")))
        .hasMessage("gantry.io/gpu-inventory: devices[0]: memoryMib cannot be negative, got -1");
  }

  @Test
  void gpuCountMustMatchTheDevices() throws Exception {
    String json = new InventoryAnnotation(discover(Fixtures.TESLA_T4)).toJson();

    assertThatThrownBy(
            () -> InventoryAnnotation.parse(json.replace("\"gpuCount\":1", "\"gpuCount\":2")))
        .hasMessage("gantry.io/gpu-inventory: gpuCount: expected the number of devices (1), got 2");
  }
}
