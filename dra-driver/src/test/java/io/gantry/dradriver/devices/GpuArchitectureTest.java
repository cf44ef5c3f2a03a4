package io.gantry.dradriver.devices;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuArchitectureTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // the product names of the device agent's nvidia-smi fixtures, as nvidia-smi spells them
    "NVIDIA H100 80GB HBM3, Hopper",
    "NVIDIA GB200, Blackwell",
    "NVIDIA A100-SXM4-40GB, Ampere",
    "NVIDIA A100-SXM4-80GB, Ampere",
    "NVIDIA A10G, Ampere",
    "NVIDIA GeForce RTX 3060, Ampere",
    "Tesla T4, Turing",
    "NVIDIA RTX 6000 Ada Generation, Ada Lovelace",
    "NVIDIA H200, Hopper",
    "NVIDIA L40S, Ada Lovelace",
    "Tesla V100-SXM2-16GB, Volta",
    "NVIDIA B200, Blackwell"
  })
  void knownProductsHaveTheirArchitecture(String product, String architecture) {
    assertThat(GpuArchitecture.of(product)).hasValue(architecture);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"Test GPU", "NVIDIA Graphics Device"})
  void anUnknownProductHasNone(String product) {
    assertThat(GpuArchitecture.of(product)).isEqualTo(Optional.empty());
  }
}
