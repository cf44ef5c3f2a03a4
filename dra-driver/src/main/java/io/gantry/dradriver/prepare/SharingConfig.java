package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSet;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The driver's opaque device configuration: how the devices of a request are shared. In a claim (or
 * a DeviceClass) as {@code opaque: {driver: gpu.gantry.io, parameters: {...}}} with parameters
 *
 * <pre>{@code
 * apiVersion: gpu.gantry.io/v1
 * kind: GpuSharingConfig
 * computeMode: mps        # or time-slicing
 * fraction: 0.5           # the portion of each device, in (0, 1]; or instead
 * memoryMiB: 20000        # the device memory each device gives, which sets the portion
 * }</pre>
 *
 * It becomes the {@code gpu-sharing} contract's {@link GpuSharingRequest}, whose enforcement (the
 * memory limits, and for MPS the thread percentage and pipe directory) the CDI spec carries.
 */
public record SharingConfig(
    ComputeMode computeMode, OptionalDouble fraction, OptionalLong memoryMib) {
  public static final String API_VERSION = "gpu.gantry.io/v1";
  public static final String KIND = "GpuSharingConfig";
  private static final ImmutableSet<String> FIELDS =
      ImmutableSet.of("apiVersion", "kind", "computeMode", "fraction", "memoryMiB");

  public SharingConfig {
    requireNonNull(computeMode, "computeMode is null");
    requireNonNull(fraction, "fraction is null");
    requireNonNull(memoryMib, "memoryMib is null");
  }

  /** The sharing request for {@code deviceCount} devices that this configuration describes. */
  public GpuSharingRequest request(int deviceCount) {
    GpuSharingRequest request =
        fraction.isPresent()
            ? GpuSharingRequest.ofFraction(fraction.getAsDouble(), deviceCount)
            : GpuSharingRequest.ofMemory(memoryMib.getAsLong(), deviceCount);
    return request.withComputeMode(computeMode);
  }

  /**
   * Reads {@code parameters}; {@code field} is where they are in the claim (for example {@code
   * status.allocation.devices.config[0].opaque.parameters}).
   *
   * @throws ClaimException naming the field that is missing, unknown or has a bad value
   */
  public static SharingConfig parse(JsonNode parameters, String field) throws ClaimException {
    if (parameters == null || !parameters.isObject()) {
      throw new ClaimException(field + ": expected an object with kind " + KIND);
    }
    for (Map.Entry<String, JsonNode> property : parameters.properties()) {
      String name = property.getKey();
      if (!FIELDS.contains(name)) {
        throw new ClaimException(
            field + "." + name + ": unknown field, expected one of " + String.join(", ", FIELDS));
      }
    }
    expectText(parameters, field, "apiVersion", API_VERSION);
    expectText(parameters, field, "kind", KIND);
    JsonNode mode = parameters.get("computeMode");
    if (mode == null || !mode.isTextual()) {
      throw new ClaimException(field + ".computeMode: required, time-slicing or mps");
    }
    ComputeMode computeMode;
    try {
      computeMode = ComputeMode.parse(mode.asText());
    } catch (IllegalArgumentException e) {
      throw new ClaimException(field + ".computeMode: " + e.getMessage(), e);
    }
    JsonNode fraction = parameters.get("fraction");
    JsonNode memory = parameters.get("memoryMiB");
    if ((fraction == null) == (memory == null)) {
      throw new ClaimException(field + ": exactly one of fraction and memoryMiB is required");
    }
    if (fraction != null) {
      if (!fraction.isNumber() || fraction.asDouble() <= 0 || fraction.asDouble() > 1) {
        throw new ClaimException(field + ".fraction: expected a number in (0, 1], got " + fraction);
      }
      return new SharingConfig(
          computeMode, OptionalDouble.of(fraction.asDouble()), OptionalLong.empty());
    }
    if (!memory.isIntegralNumber() || memory.asLong() <= 0) {
      throw new ClaimException(
          field + ".memoryMiB: expected a positive whole number of MiB, got " + memory);
    }
    return new SharingConfig(computeMode, OptionalDouble.empty(), OptionalLong.of(memory.asLong()));
  }

  private static void expectText(JsonNode parameters, String field, String name, String expected)
      throws ClaimException {
    JsonNode value = parameters.get(name);
    if (value == null || !value.asText().equals(expected)) {
      throw new ClaimException(
          field
              + "."
              + name
              + ": expected "
              + expected
              + ", got "
              + (value == null ? "nothing" : value));
    }
  }
}
