package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.nodecommon.testing.Fixtures;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class QueryXmlParserTest {

  record Case(
      String fixture,
      String driverVersion,
      String cudaVersion,
      List<String> uuids,
      List<String> pciBusIds,
      String productName,
      long memoryMib,
      MigMode migMode,
      Optional<FabricMembership> fabric) {
    @Override
    public String toString() {
      return fixture;
    }
  }

  private static final Optional<FabricMembership> NO_FABRIC = Optional.empty();

  static Stream<Case> fixtures() {
    return Stream.of(
        new Case(
            Fixtures.HGX_H100,
            "580.105.08",
            "13.0",
            IntStream.range(0, 8)
                .mapToObj(i -> String.format("GPU-%08d-0000-0000-0000-%012d", i, i))
                .toList(),
            List.of(
                "00000000:53:00.0",
                "00000000:64:00.0",
                "00000000:75:00.0",
                "00000000:86:00.0",
                "00000000:97:00.0",
                "00000000:A8:00.0",
                "00000000:B9:00.0",
                "00000000:CA:00.0"),
            "NVIDIA H100 80GB HBM3",
            81559,
            MigMode.DISABLED,
            Optional.of(
                new FabricMembership(
                    Optional.of("00000000-0000-0000-0000-000000000000"), OptionalInt.of(0)))),
        new Case(
            Fixtures.GB200,
            "580.173.02",
            "13.0",
            IntStream.range(0, 4)
                .mapToObj(i -> String.format("GPU-%08d-0000-0000-0000-%012d", i, i))
                .toList(),
            List.of("00000000:29:00.0", "00000000:3F:00.0", "00000000:9C:00.0", "00000000:B2:00.0"),
            "NVIDIA GB200",
            189471,
            MigMode.DISABLED,
            Optional.of(
                new FabricMembership(
                    Optional.of("00000001-0000-0000-0000-000000000001"), OptionalInt.of(2)))),
        new Case(
            Fixtures.A100_40GB,
            "570.148.08",
            "12.8",
            List.of("GPU-00000000-0000-0000-0000-000000000000"),
            List.of("00000000:06:00.0"),
            "NVIDIA A100-SXM4-40GB",
            40960,
            MigMode.DISABLED,
            NO_FABRIC),
        new Case(
            Fixtures.A100_80GB_MIG,
            "535.54.03",
            "12.2",
            List.of("GPU-513536b6-7d19-9063-b049-1e69664bb298"),
            List.of("00000000:01:00.0"),
            "NVIDIA A100-SXM4-80GB",
            81920,
            MigMode.ENABLED,
            NO_FABRIC),
        new Case(
            Fixtures.A10G,
            "515.105.01",
            "11.7",
            List.of("GPU-9a9a6c50-2a47-2f51-a902-b82c3b127e94"),
            List.of("00000000:00:1E.0"),
            "NVIDIA A10G",
            23028,
            MigMode.UNSUPPORTED,
            NO_FABRIC),
        new Case(
            Fixtures.RTX_3060,
            "570.124.04",
            "12.8",
            List.of("GPU-d6889ff6-2523-9142-ca3c-1ca3f396a625"),
            List.of("00000000:2D:00.0"),
            "NVIDIA GeForce RTX 3060",
            12288,
            MigMode.UNSUPPORTED,
            NO_FABRIC),
        new Case(
            Fixtures.TESLA_T4,
            "595.91.07",
            "13.2",
            List.of("GPU-00000000-0000-0000-0000-000000000000"),
            List.of("00000000:00:1E.0"),
            "Tesla T4",
            15360,
            MigMode.UNSUPPORTED,
            NO_FABRIC));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void everyFixtureParses(Case c) throws Exception {
    SmiQuery query = QueryXmlParser.parse(Fixtures.read(c.fixture()));

    assertThat(query.driverVersion()).isEqualTo(c.driverVersion());
    assertThat(query.cudaVersion()).contains(c.cudaVersion());
    assertThat(query.devices())
        .extracting(GpuDevice::index)
        .containsExactlyElementsOf(IntStream.range(0, c.uuids().size()).boxed().toList());
    assertThat(query.devices()).extracting(GpuDevice::uuid).containsExactlyElementsOf(c.uuids());
    assertThat(query.devices())
        .extracting(GpuDevice::pciBusId)
        .containsExactlyElementsOf(c.pciBusIds());
    assertThat(query.devices())
        .allSatisfy(
            d -> {
              assertThat(d.productName()).isEqualTo(c.productName());
              assertThat(d.memoryMib()).isEqualTo(c.memoryMib());
              assertThat(d.migMode()).isEqualTo(c.migMode());
              assertThat(d.numaNode()).isEmpty();
              assertThat(d.health()).isEqualTo(GpuHealth.HEALTHY);
              assertThat(d.fabric()).isEqualTo(c.fabric());
            });
    if (c.migMode() != MigMode.ENABLED) {
      assertThat(query.devices()).allSatisfy(d -> assertThat(d.migInstances()).isEmpty());
    }
  }

  @Test
  void migDevicesOfTheA100AreFourOneSliceInstances() throws Exception {
    GpuDevice gpu = QueryXmlParser.parse(Fixtures.read(Fixtures.A100_80GB_MIG)).devices().get(0);

    assertThat(gpu.migInstances()).containsExactly(mig(0, 3), mig(1, 4), mig(2, 5), mig(3, 6));
  }

  private static MigInstance mig(int index, int gpuInstanceId) {
    return new MigInstance(
        index, gpuInstanceId, 0, Optional.empty(), Optional.empty(), 19968, OptionalInt.of(14));
  }

  @Test
  void theA100MigFixtureHasOneGpuElementAlthoughFourAreAttached() throws Exception {
    String xml = Fixtures.read(Fixtures.A100_80GB_MIG);

    assertThat(xml).contains("<attached_gpus>4</attached_gpus>");
    assertThat(QueryXmlParser.parse(xml).devices()).hasSize(1);
  }

  @Test
  void aMissingCudaVersionIsEmpty() throws Exception {
    String xml = Fixtures.read(Fixtures.TESLA_T4).replace("<cuda_version>13.2</cuda_version>", "");

    assertThat(QueryXmlParser.parse(xml).cudaVersion()).isEmpty();
  }

  @Test
  void noGpuElementsMeansNoDevices() throws Exception {
    String xml =
        "<?xml version=\"1.0\" ?>\n"
            + "<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n"
            + "<nvidia_smi_log><driver_version>570.1</driver_version>"
            + "<attached_gpus>0</attached_gpus></nvidia_smi_log>";

    assertThat(QueryXmlParser.parse(xml).devices()).isEmpty();
  }

  @Test
  void memoryThatIsNotInMibNamesTheField() {
    String xml =
        Fixtures.read(Fixtures.TESLA_T4)
            .replaceFirst("<total>15360 MiB</total>", "<total>15 GiB</total>");

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .isInstanceOfSatisfying(
            NvidiaSmiException.class,
            e -> assertThat(e.reason()).isEqualTo(NvidiaSmiException.Reason.UNPARSEABLE))
        .hasMessage(
            "nvidia-smi -q -x: gpu 00000000:00:1E.0: fb_memory_usage/total: expected '<number> MiB',"
                + " got '15 GiB'");
  }

  @Test
  void anNaUuidNamesTheField() {
    String xml =
        Fixtures.read(Fixtures.RTX_3060)
            .replace("<uuid>GPU-d6889ff6-2523-9142-ca3c-1ca3f396a625</uuid>", "<uuid>N/A</uuid>");

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .hasMessage("nvidia-smi -q -x: gpu 00000000:2D:00.0: uuid: is N/A, a value is required");
  }

  @Test
  void aMissingProductNameNamesTheField() {
    String xml =
        Fixtures.read(Fixtures.A10G).replace("<product_name>NVIDIA A10G</product_name>", "");

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .hasMessage("nvidia-smi -q -x: gpu 00000000:00:1E.0: product_name: is missing");
  }

  @Test
  void anUnknownMigModeNamesTheField() {
    String xml =
        Fixtures.read(Fixtures.A100_40GB)
            .replace("<current_mig>Disabled</current_mig>", "<current_mig>Sideways</current_mig>");

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .hasMessage(
            "nvidia-smi -q -x: gpu 00000000:06:00.0: mig_mode/current_mig: expected Enabled, Disabled"
                + " or N/A, got 'Sideways'");
  }

  @Test
  void aBadMigInstanceIdNamesTheMigDevice() {
    String xml =
        Fixtures.read(Fixtures.A100_80GB_MIG)
            .replace(
                "<gpu_instance_id>5</gpu_instance_id>", "<gpu_instance_id>five</gpu_instance_id>");

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .hasMessage(
            "nvidia-smi -q -x: gpu 00000000:01:00.0: mig_devices/mig_device #2:"
                + " gpu_instance_id: expected an integer, got 'five'");
  }

  @Test
  void anUnfinishedDocumentIsUnparseable() {
    String xml = Fixtures.read(Fixtures.A10G).substring(0, 500);

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .isInstanceOf(NvidiaSmiException.class)
        .hasMessageStartingWith("nvidia-smi -q -x: not well-formed XML: ");
  }

  @Test
  void anotherRootElementIsRefused() {
    assertThatThrownBy(() -> QueryXmlParser.parse("<html><body/></html>"))
        .hasMessage("nvidia-smi -q -x: root element: expected <nvidia_smi_log>, got <html>");
  }

  @Test
  void externalEntitiesAreNotResolved() throws Exception {
    String xml =
        """
        <?xml version="1.0"?>
        <!DOCTYPE nvidia_smi_log [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
        <nvidia_smi_log><driver_version>&secret;</driver_version></nvidia_smi_log>""";

    assertThatThrownBy(() -> QueryXmlParser.parse(xml))
        .hasMessageStartingWith("nvidia-smi -q -x: ");
  }
}
