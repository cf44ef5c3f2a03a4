package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.nodecommon.testing.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyMatrixParserTest {

  @Test
  void dgx1HybridCubeMeshPairsAndLinkCounts() throws Exception {
    TopologyMatrix m = TopologyMatrixParser.parse(Fixtures.read(Fixtures.TOPO_DGX1));

    assertThat(m.gpuCount()).isEqualTo(8);
    assertThat(m.links()).hasSize(28);
    assertThat(m.links().stream().filter(l -> l.type() == LinkType.NVLINK).map(GpuLink::toString))
        .containsExactly(
            nv(0, 1, 1),
            nv(0, 2, 1),
            nv(0, 3, 2),
            nv(0, 4, 2),
            nv(1, 2, 2),
            nv(1, 3, 1),
            nv(1, 5, 2),
            nv(2, 3, 2),
            nv(2, 6, 1),
            nv(3, 7, 1),
            nv(4, 5, 1),
            nv(4, 6, 1),
            nv(4, 7, 2),
            nv(5, 6, 2),
            nv(5, 7, 1),
            nv(6, 7, 2));
    assertThat(m.links().stream().filter(l -> l.type() != LinkType.NVLINK))
        .allSatisfy(l -> assertThat(l.type()).isEqualTo(LinkType.SYS))
        .hasSize(12);
    // each V100 has six NVLinks
    for (int gpu = 0; gpu < 8; gpu++) {
      int g = gpu;
      assertThat(
              m.links().stream()
                  .filter(l -> l.gpuIndexA() == g || l.gpuIndexB() == g)
                  .mapToInt(GpuLink::nvlinkCount)
                  .sum())
          .as("NVLinks of GPU%d", gpu)
          .isEqualTo(6);
    }
    assertThat(m.numaNodes()).as("the old format has no NUMA Affinity column").isEmpty();
  }

  private static String nv(int a, int b, int count) {
    return new GpuLink(a, b, LinkType.NVLINK, count).toString();
  }

  @Test
  void pcieBoxWithSpacesHasNoNvlinkAndTwoNumaNodes() throws Exception {
    TopologyMatrix m = TopologyMatrixParser.parse(Fixtures.read(Fixtures.TOPO_RTX6000_PCIE));

    assertThat(m.gpuCount()).isEqualTo(4);
    assertThat(m.links())
        .containsExactly(
            new GpuLink(0, 1, LinkType.NODE, 0),
            new GpuLink(0, 2, LinkType.SYS, 0),
            new GpuLink(0, 3, LinkType.SYS, 0),
            new GpuLink(1, 2, LinkType.SYS, 0),
            new GpuLink(1, 3, LinkType.SYS, 0),
            new GpuLink(2, 3, LinkType.NODE, 0));
    assertThat(m.numaNodes()).isEqualTo(Map.of(0, 0, 1, 0, 2, 1, 3, 1));
  }

  @Test
  void singleH100WithAnsiHeaderAndEmptyCell() throws Exception {
    String section = Fixtures.captureSection("capabilities :: topo -m");
    assertThat(section).contains("\u001B[4m").contains("0\t\tN/A");

    TopologyMatrix m = TopologyMatrixParser.parse(section);

    assertThat(m.gpuCount()).isEqualTo(1);
    assertThat(m.links()).isEmpty();
    assertThat(m.numaNodes()).isEqualTo(Map.of(0, 0));
  }

  @Test
  void socIsTheOldNameOfSys() throws Exception {
    TopologyMatrix m =
        TopologyMatrixParser.parse(
            "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tSOC\t0-7\nGPU1\tSOC\t X \t8-15\n");

    assertThat(m.links()).containsExactly(new GpuLink(0, 1, LinkType.SYS, 0));
  }

  @Test
  void anUnknownCellNamesRowAndColumn() {
    String topo =
        Fixtures.read(Fixtures.TOPO_DGX1).replaceFirst("GPU0\t X \tNV1", "GPU0\t X \tNVX");

    assertThatThrownBy(() -> TopologyMatrixParser.parse(topo))
        .isInstanceOf(NvidiaSmiException.class)
        .hasMessage(
            "nvidia-smi topo -m: row GPU0, column GPU1: expected NV#, PIX, PXB, PHB, NODE, SYS or"
                + " SOC, got 'NVX'");
  }

  @Test
  void aBadNumaAffinityNamesTheRow() {
    String topo = Fixtures.read(Fixtures.TOPO_RTX6000_PCIE).replace("32-63   1 ", "32-63   one ");

    assertThatThrownBy(() -> TopologyMatrixParser.parse(topo))
        .hasMessage(
            "nvidia-smi topo -m: row GPU2, NUMA Affinity: expected a NUMA node number or N/A, got"
                + " 'one'");
  }

  @Test
  void aMissingGpuRowIsReported() {
    List<String> lines = Fixtures.read(Fixtures.TOPO_RTX6000_PCIE).lines().toList();
    String topo = String.join("\n", lines.subList(0, 3)) + "\n";

    assertThatThrownBy(() -> TopologyMatrixParser.parse(topo))
        .hasMessage(
            "nvidia-smi topo -m: GPU rows: the header has 4 GPU columns but there are 2 GPU rows");
  }

  @Test
  void aShortRowIsReported() {
    assertThatThrownBy(() -> TopologyMatrixParser.parse("\tGPU0\tGPU1\nGPU0\t X \nGPU1\tSYS\t X\n"))
        .hasMessage("nvidia-smi topo -m: row GPU0: has 1 cells, the header names 2 devices");
  }

  @Test
  void outputWithoutGpuColumnsIsRefused() {
    assertThatThrownBy(() -> TopologyMatrixParser.parse("\n\n"))
        .hasMessage("nvidia-smi topo -m: header: the output is empty");
    assertThatThrownBy(() -> TopologyMatrixParser.parse("No devices were found\n"))
        .hasMessage(
            "nvidia-smi topo -m: header: expected GPU0, GPU1, ... columns, got 'No devices were"
                + " found'");
  }
}
