package io.gantry.kubemodel.kai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** KAI's pod admission rules for gpu-fraction, gpu-memory and gpu-fraction-num-devices. */
class GpuSharingAnnotationsTest {

  record Valid(String name, Map<String, String> annotations, Optional<GpuSharingRequest> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  record Invalid(String name, Map<String, String> annotations, long wholeGpus, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Valid> valid() {
    return Stream.of(
        new Valid("no annotations", Map.of(), Optional.empty()),
        new Valid(
            "a half",
            Map.of("gpu-fraction", "0.5"),
            Optional.of(GpuSharingRequest.ofFraction(0.5, 1))),
        new Valid(
            "memory in MiB",
            Map.of("gpu-memory", "20000"),
            Optional.of(GpuSharingRequest.ofMemory(20000, 1))),
        new Valid(
            "a fraction on two devices",
            Map.of("gpu-fraction", "0.25", "gpu-fraction-num-devices", "2"),
            Optional.of(GpuSharingRequest.ofFraction(0.25, 2))),
        new Valid(
            "a quarter through MPS",
            Map.of("gpu-fraction", "0.25", "mps", "true"),
            Optional.of(GpuSharingRequest.ofFraction(0.25, 1).withComputeMode(ComputeMode.MPS))),
        new Valid(
            "mps other than true is time slicing",
            Map.of("gpu-memory", "1000", "mps", "false"),
            Optional.of(GpuSharingRequest.ofMemory(1000, 1))),
        new Valid(
            "other annotations are not ours", Map.of("example.com/owner", "x"), Optional.empty()));
  }

  static Stream<Invalid> invalid() {
    String range = "annotations.gpu-fraction: " + GpuSharingAnnotations.FRACTION_RANGE;
    return Stream.of(
        new Invalid("a whole GPU as a fraction", Map.of("gpu-fraction", "1"), 0, range),
        new Invalid(
            "mps without a fraction",
            Map.of("mps", "true"),
            0,
            "annotations.mps: mps is allowed only with a gpu-fraction or gpu-memory request"),
        new Invalid("zero", Map.of("gpu-fraction", "0"), 0, range),
        new Invalid("negative", Map.of("gpu-fraction", "-0.5"), 0, range),
        new Invalid("not a number", Map.of("gpu-fraction", "half"), 0, range),
        new Invalid("NaN", Map.of("gpu-fraction", "NaN"), 0, range),
        new Invalid(
            "memory with a unit",
            Map.of("gpu-memory", "20Gi"),
            0,
            "annotations.gpu-memory: " + GpuSharingAnnotations.MEMORY_POSITIVE),
        new Invalid(
            "memory zero",
            Map.of("gpu-memory", "0"),
            0,
            "annotations.gpu-memory: " + GpuSharingAnnotations.MEMORY_POSITIVE),
        new Invalid(
            "fraction and memory",
            Map.of("gpu-fraction", "0.5", "gpu-memory", "100"),
            0,
            "annotations.gpu-memory: " + GpuSharingAnnotations.MEMORY_WITH_GPU),
        new Invalid(
            "fraction and whole GPUs",
            Map.of("gpu-fraction", "0.5"),
            1,
            "annotations.gpu-fraction: " + GpuSharingAnnotations.FRACTION_WITH_WHOLE),
        new Invalid(
            "memory and whole GPUs",
            Map.of("gpu-memory", "100"),
            2,
            "annotations.gpu-memory: " + GpuSharingAnnotations.MEMORY_WITH_GPU),
        new Invalid(
            "a device count alone",
            Map.of("gpu-fraction-num-devices", "2"),
            0,
            "annotations.gpu-fraction-num-devices: " + GpuSharingAnnotations.COUNT_ALONE),
        new Invalid(
            "a device count of zero",
            Map.of("gpu-fraction", "0.5", "gpu-fraction-num-devices", "0"),
            0,
            "annotations.gpu-fraction-num-devices: " + GpuSharingAnnotations.COUNT_POSITIVE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void readsTheRequest(Valid c) {
    assertThat(GpuSharingAnnotations.parse(c.annotations(), 0)).isEqualTo(c.want());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsWithKaisMessageNamingTheAnnotation(Invalid c) {
    assertThatThrownBy(() -> GpuSharingAnnotations.parse(c.annotations(), c.wholeGpus()))
        .isInstanceOf(KaiObjectException.class)
        .hasMessage(c.message());
  }

  @Test
  void kaisSentencesAreQuotedExactly() {
    assertThat(GpuSharingAnnotations.FRACTION_RANGE)
        .isEqualTo("gpu-fraction annotation value must be a positive number smaller than 1.0");
    assertThat(GpuSharingAnnotations.MEMORY_POSITIVE)
        .isEqualTo("gpu-memory annotation value must be a positive integer greater than 0");
  }
}
