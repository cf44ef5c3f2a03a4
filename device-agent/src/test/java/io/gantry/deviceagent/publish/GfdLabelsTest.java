package io.gantry.deviceagent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.nvidiasmi.QueryXmlParser;
import io.gantry.nodecommon.nvidiasmi.SmiQuery;
import io.gantry.nodecommon.testing.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GfdLabelsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    Fixtures.HGX_H100 + ", 8, 81559, NVIDIA-H100-80GB-HBM3",
    Fixtures.GB200 + ", 4, 189471, NVIDIA-GB200",
    Fixtures.A100_80GB_MIG + ", 1, 81920, NVIDIA-A100-SXM4-80GB",
    Fixtures.TESLA_T4 + ", 1, 15360, Tesla-T4",
    Fixtures.RTX_3060 + ", 1, 12288, NVIDIA-GeForce-RTX-3060"
  })
  void labelsOfEachFixture(String fixture, String count, String memory, String product)
      throws Exception {
    SmiQuery q = QueryXmlParser.parse(Fixtures.read(fixture));
    GpuInventory inventory =
        new GpuInventory(
            q.driverVersion(), q.cudaVersion(), q.devices(), false, List.of(), List.of());

    assertThat(GfdLabels.of(inventory))
        .isEqualTo(
            Map.of(
                "nvidia.com/gpu.count",
                count,
                "nvidia.com/gpu.memory",
                memory,
                "nvidia.com/gpu.product",
                product));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "NVIDIA H100 80GB HBM3|NVIDIA-H100-80GB-HBM3",
        " (weird) name/with:chars |weird--name-with-chars",
        "a-very-long-product-name-that-goes-on-and-on-past-the-limit-of-63-chars|a-very-long-product-name-that-goes-on-and-on-past-the-limit-of"
      })
  void productBecomesAValidLabelValue(String product, String label) {
    assertThat(GfdLabels.labelValue(product)).isEqualTo(label).hasSizeLessThanOrEqualTo(63);
  }
}
