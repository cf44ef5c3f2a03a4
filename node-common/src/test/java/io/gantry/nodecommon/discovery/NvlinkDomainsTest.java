package io.gantry.nodecommon.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.gantry.gpusharing.inventory.DomainSource;
import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.nodecommon.nvidiasmi.QueryXmlParser;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrixParser;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Gpus;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NvlinkDomainsTest {

  private static List<GpuDevice> devices(String xmlFixture) throws Exception {
    return QueryXmlParser.parse(Fixtures.read(xmlFixture)).devices();
  }

  @Test
  void hgxH100IsOneAllToAllDomainOfEightFromItsNvswitchFabric() throws Exception {
    assertThat(NvlinkDomains.derive(devices(Fixtures.HGX_H100), List.of()))
        .containsExactly(
            new NvlinkDomain(
                "local-0",
                List.of(0, 1, 2, 3, 4, 5, 6, 7),
                true,
                Optional.empty(),
                List.of(DomainSource.FABRIC)));
  }

  @Test
  void gb200IsOneDomainNamedByItsMultiNodeClique() throws Exception {
    String clique = "00000001-0000-0000-0000-000000000001.2";

    assertThat(NvlinkDomains.derive(devices(Fixtures.GB200), List.of()))
        .containsExactly(
            new NvlinkDomain(
                clique,
                List.of(0, 1, 2, 3),
                true,
                Optional.of(clique),
                List.of(DomainSource.FABRIC)));
  }

  static Stream<String> singleGpuFixtures() {
    return Stream.of(
        Fixtures.A100_40GB,
        Fixtures.A100_80GB_MIG,
        Fixtures.A10G,
        Fixtures.RTX_3060,
        Fixtures.TESLA_T4);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("singleGpuFixtures")
  void aSingleGpuWithoutAFabricIsInNoDomain(String fixture) throws Exception {
    assertThat(devices(fixture)).hasSize(1);
    assertThat(NvlinkDomains.derive(devices(fixture), List.of())).isEmpty();
  }

  @Test
  void dgx1CubeMeshIsOneDomainOfEightThatIsNotAllToAll() throws Exception {
    List<GpuLink> links = TopologyMatrixParser.parse(Fixtures.read(Fixtures.TOPO_DGX1)).links();

    assertThat(NvlinkDomains.derive(Gpus.plain(8), links))
        .containsExactly(
            new NvlinkDomain(
                "local-0",
                List.of(0, 1, 2, 3, 4, 5, 6, 7),
                false,
                Optional.empty(),
                List.of(DomainSource.LINK_MATRIX)));
  }

  @Test
  void pcieOnlyMachineHasNoDomain() throws Exception {
    List<GpuLink> links =
        TopologyMatrixParser.parse(Fixtures.read(Fixtures.TOPO_RTX6000_PCIE)).links();

    assertThat(NvlinkDomains.derive(Gpus.plain(4), links)).isEmpty();
  }

  @Test
  void h100CaptureSingleGpuHasNoDomain() throws Exception {
    List<GpuLink> links =
        TopologyMatrixParser.parse(Fixtures.captureSection("capabilities :: topo -m")).links();

    assertThat(NvlinkDomains.derive(Gpus.plain(1), links)).isEmpty();
  }

  @Test
  void separateNvlinkBridgesAreSeparateAllToAllDomains() {
    List<GpuLink> links =
        List.of(
            new GpuLink(0, 1, LinkType.NVLINK, 4),
            new GpuLink(0, 2, LinkType.SYS, 0),
            new GpuLink(0, 3, LinkType.SYS, 0),
            new GpuLink(1, 2, LinkType.SYS, 0),
            new GpuLink(1, 3, LinkType.SYS, 0),
            new GpuLink(2, 3, LinkType.NVLINK, 4));

    assertThat(NvlinkDomains.derive(Gpus.plain(4), links))
        .extracting(NvlinkDomain::id, NvlinkDomain::gpuIndices, NvlinkDomain::allToAll)
        .containsExactly(
            tuple("local-0", List.of(0, 1), true), tuple("local-2", List.of(2, 3), true));
  }

  @Test
  void aLoneGpuInAMultiNodeCliqueIsADomainOfOne() {
    FabricMembership rack =
        new FabricMembership(
            Optional.of("00000001-0000-0000-0000-000000000001"), OptionalInt.of(7));

    assertThat(NvlinkDomains.derive(List.of(Gpus.gpu(0, Optional.of(rack))), List.of()))
        .containsExactly(
            new NvlinkDomain(
                "00000001-0000-0000-0000-000000000001.7",
                List.of(0),
                true,
                Optional.of("00000001-0000-0000-0000-000000000001.7"),
                List.of(DomainSource.FABRIC)));
  }

  @Test
  void matrixAndFabricTogetherNameBothSources() {
    FabricMembership local = new FabricMembership(Optional.empty(), OptionalInt.empty());
    List<GpuDevice> gpus =
        List.of(
            Gpus.gpu(0, Optional.of(local)),
            Gpus.gpu(1, Optional.of(local)),
            Gpus.gpu(2, Optional.empty()));
    List<GpuLink> links =
        List.of(
            new GpuLink(0, 1, LinkType.NVLINK, 18),
            new GpuLink(0, 2, LinkType.SYS, 0),
            new GpuLink(1, 2, LinkType.NVLINK, 2));

    assertThat(NvlinkDomains.derive(gpus, links))
        .containsExactly(
            new NvlinkDomain(
                "local-0",
                List.of(0, 1, 2),
                false,
                Optional.empty(),
                List.of(DomainSource.LINK_MATRIX, DomainSource.FABRIC)));
  }
}
