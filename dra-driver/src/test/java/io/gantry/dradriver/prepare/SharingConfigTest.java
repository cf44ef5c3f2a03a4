package io.gantry.dradriver.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SharingConfigTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String FIELD = "status.allocation.devices.config[0].opaque.parameters";
  private static final String HEAD =
      "\"apiVersion\": \"gpu.gantry.io/v1\", \"kind\": \"GpuSharingConfig\", ";

  private static SharingConfig parse(String json) throws Exception {
    return SharingConfig.parse(MAPPER.readTree(json), FIELD);
  }

  @Test
  void aFractionUnderMpsBecomesTheContractsRequest() throws Exception {
    SharingConfig config = parse("{" + HEAD + "\"computeMode\": \"mps\", \"fraction\": 0.25}");

    assertThat(config)
        .isEqualTo(
            new SharingConfig(ComputeMode.MPS, OptionalDouble.of(0.25), OptionalLong.empty()));
    assertThat(config.request(2))
        .isEqualTo(GpuSharingRequest.ofFraction(0.25, 2).withComputeMode(ComputeMode.MPS));
  }

  @Test
  void memoryUnderTimeSlicingBecomesAMemoryRequest() throws Exception {
    SharingConfig config =
        parse("{" + HEAD + "\"computeMode\": \"time-slicing\", \"memoryMiB\": 20000}");

    assertThat(config.request(1)).isEqualTo(GpuSharingRequest.ofMemory(20000, 1));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not an object | \"mps\" | " + FIELD + ": expected an object with kind GpuSharingConfig",
        "unknown field | {HEAD\"computeMode\": \"mps\", \"fraction\": 0.5, \"limit\": 1} | "
            + FIELD
            + ".limit: unknown field, expected one of apiVersion, kind, computeMode, fraction,"
            + " memoryMiB",
        "wrong apiVersion | {\"apiVersion\": \"v2\", \"kind\": \"GpuSharingConfig\"} | "
            + FIELD
            + ".apiVersion: expected gpu.gantry.io/v1, got \"v2\"",
        "wrong kind | {\"apiVersion\": \"gpu.gantry.io/v1\"} | "
            + FIELD
            + ".kind: expected GpuSharingConfig, got nothing",
        "no compute mode | {HEAD\"fraction\": 0.5} | "
            + FIELD
            + ".computeMode: required, time-slicing or mps",
        "unknown compute mode | {HEAD\"computeMode\": \"mig\", \"fraction\": 0.5} | "
            + FIELD
            + ".computeMode: unknown compute mode 'mig', expected time-slicing or mps",
        "neither amount | {HEAD\"computeMode\": \"mps\"} | "
            + FIELD
            + ": exactly one of fraction and memoryMiB is required",
        "both amounts | {HEAD\"computeMode\": \"mps\", \"fraction\": 0.5, \"memoryMiB\": 10} | "
            + FIELD
            + ": exactly one of fraction and memoryMiB is required",
        "fraction over one | {HEAD\"computeMode\": \"mps\", \"fraction\": 1.5} | "
            + FIELD
            + ".fraction: expected a number in (0, 1], got 1.5",
        "fraction as text | {HEAD\"computeMode\": \"mps\", \"fraction\": \"half\"} | "
            + FIELD
            + ".fraction: expected a number in (0, 1], got \"half\"",
        "negative memory | {HEAD\"computeMode\": \"mps\", \"memoryMiB\": -5} | "
            + FIELD
            + ".memoryMiB: expected a positive whole number of MiB, got -5"
      })
  void badParametersAreRefusedNamingTheField(String name, String json, String message) {
    assertThatThrownBy(() -> parse(json.replace("{HEAD", "{" + HEAD)))
        .isInstanceOf(ClaimException.class)
        .hasMessage(message);
  }
}
