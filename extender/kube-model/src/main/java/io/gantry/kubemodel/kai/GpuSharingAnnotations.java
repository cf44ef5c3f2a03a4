package io.gantry.kubemodel.kai;

import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A pod's shared-GPU request from KAI's annotations, with the checks and the words of KAI's pod
 * admission: {@value #GPU_FRACTION} a number strictly between 0 and 1, {@value #GPU_MEMORY} a
 * positive whole number of MiB, {@value #NUM_DEVICES} a positive whole number that needs one of the
 * two; a fraction and a memory request, or either with whole {@code nvidia.com/gpu}, are errors.
 * {@value #MPS}{@code : "true"} shares the devices through CUDA MPS and needs a fraction or memory
 * request.
 */
public final class GpuSharingAnnotations {
  public static final String GPU_FRACTION = "gpu-fraction";
  public static final String GPU_MEMORY = "gpu-memory";
  public static final String NUM_DEVICES = "gpu-fraction-num-devices";
  public static final String MPS = "mps";

  static final String FRACTION_RANGE =
      "gpu-fraction annotation value must be a positive number smaller than 1.0";
  static final String MEMORY_POSITIVE =
      "gpu-memory annotation value must be a positive integer greater than 0";
  static final String COUNT_POSITIVE =
      "fraction count annotation value must be a positive integer greater than 0";
  static final String FRACTION_WITH_WHOLE =
      "cannot have both GPU fraction request and whole GPU resource request/limit";
  static final String MEMORY_WITH_GPU = "cannot request both GPU and GPU memory";
  static final String MPS_ALONE = "mps is allowed only with a gpu-fraction or gpu-memory request";
  static final String COUNT_ALONE =
      "cannot request multiple fractional devices without specifying fraction portion or"
          + " gpu-memory";

  private GpuSharingAnnotations() {}

  /**
   * The request the annotations make, if any; {@code wholeGpus} is the pod's {@code nvidia.com/gpu}
   * limit (0 when it has none).
   *
   * @throws KaiObjectException naming {@code annotations.<key>}
   */
  public static Optional<GpuSharingRequest> parse(Map<String, String> annotations, long wholeGpus) {
    OptionalDouble fraction = OptionalDouble.empty();
    OptionalLong memoryMib = OptionalLong.empty();
    OptionalInt numDevices = OptionalInt.empty();
    String f = annotations.get(GPU_FRACTION);
    if (f != null) {
      fraction = OptionalDouble.of(parseDouble(f, GPU_FRACTION, FRACTION_RANGE));
    }
    String m = annotations.get(GPU_MEMORY);
    if (m != null) {
      memoryMib = OptionalLong.of(parsePositive(m, GPU_MEMORY, MEMORY_POSITIVE));
    }
    String n = annotations.get(NUM_DEVICES);
    if (n != null) {
      long count = parsePositive(n, NUM_DEVICES, COUNT_POSITIVE);
      if (count > Integer.MAX_VALUE) {
        throw new KaiObjectException(field(NUM_DEVICES), COUNT_POSITIVE);
      }
      numDevices = OptionalInt.of((int) count);
    }
    return request(fraction, memoryMib, numDevices, "true".equals(annotations.get(MPS)), wholeGpus);
  }

  /**
   * The same rules over values already typed (as a scenario file holds them).
   *
   * @throws KaiObjectException naming {@code annotations.<key>}
   */
  public static Optional<GpuSharingRequest> request(
      OptionalDouble fraction,
      OptionalLong memoryMib,
      OptionalInt numDevices,
      boolean mps,
      long wholeGpus) {
    if (fraction.isPresent() && wholeGpus > 0) {
      throw new KaiObjectException(field(GPU_FRACTION), FRACTION_WITH_WHOLE);
    }
    if (memoryMib.isPresent() && (fraction.isPresent() || wholeGpus > 0)) {
      throw new KaiObjectException(field(GPU_MEMORY), MEMORY_WITH_GPU);
    }
    if (numDevices.isPresent() && fraction.isEmpty() && memoryMib.isEmpty()) {
      throw new KaiObjectException(field(NUM_DEVICES), COUNT_ALONE);
    }
    if (fraction.isPresent() && !(fraction.getAsDouble() > 0 && fraction.getAsDouble() < 1)) {
      throw new KaiObjectException(field(GPU_FRACTION), FRACTION_RANGE);
    }
    if (memoryMib.isPresent() && memoryMib.getAsLong() <= 0) {
      throw new KaiObjectException(field(GPU_MEMORY), MEMORY_POSITIVE);
    }
    if (numDevices.isPresent() && numDevices.getAsInt() <= 0) {
      throw new KaiObjectException(field(NUM_DEVICES), COUNT_POSITIVE);
    }
    if (mps && fraction.isEmpty() && memoryMib.isEmpty()) {
      throw new KaiObjectException(field(MPS), MPS_ALONE);
    }
    int devices = numDevices.orElse(1);
    ComputeMode mode = mps ? ComputeMode.MPS : ComputeMode.TIME_SLICING;
    if (fraction.isPresent()) {
      return Optional.of(
          GpuSharingRequest.ofFraction(fraction.getAsDouble(), devices).withComputeMode(mode));
    }
    if (memoryMib.isPresent()) {
      return Optional.of(
          GpuSharingRequest.ofMemory(memoryMib.getAsLong(), devices).withComputeMode(mode));
    }
    return Optional.empty();
  }

  private static double parseDouble(String value, String key, String problem) {
    try {
      double d = Double.parseDouble(value.trim());
      if (Double.isNaN(d)) {
        throw new KaiObjectException(field(key), problem);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new KaiObjectException(field(key), problem);
    }
  }

  private static long parsePositive(String value, String key, String problem) {
    try {
      long v = Long.parseLong(value);
      if (v <= 0) {
        throw new KaiObjectException(field(key), problem);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new KaiObjectException(field(key), problem);
    }
  }

  private static String field(String key) {
    return "annotations." + key;
  }
}
