package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MIG instance profile as NVIDIA's device plugin names its resource with the {@code mixed}
 * strategy, {@code nvidia.com/mig-<g>g.<memory>gb} (for example {@code nvidia.com/mig-1g.10gb},
 * {@code nvidia.com/mig-3g.40gb}; a {@code +me} suffix adds a media engine). {@code gpuSlices} is
 * the {@code <g>} of the name: an instance counts that many GPUs toward quota and cluster capacity
 * (kai-reference §5.1: "MIG instances (GPU slices from the profile name × count)").
 */
public record MigProfile(String name, int gpuSlices, int memoryGb) {
  public static final String RESOURCE_PREFIX = "nvidia.com/mig-";

  private static final Pattern NAME = Pattern.compile("([1-9][0-9]*)g\\.([1-9][0-9]*)gb(\\+me)?");

  public MigProfile {
    requireNonNull(name, "name is null");
    if (gpuSlices < 1 || memoryGb < 1) {
      throw new IllegalArgumentException(
          "gpuSlices and memoryGb must be positive, got " + gpuSlices + " and " + memoryGb);
    }
  }

  /** Whether a resource name is a MIG instance resource (any profile, well formed or not). */
  public static boolean isMigResource(String resourceName) {
    return resourceName.startsWith(RESOURCE_PREFIX);
  }

  /**
   * The profile of a MIG resource name; empty for a resource that is not MIG.
   *
   * @throws IllegalArgumentException for a MIG resource whose profile is not {@code <g>g.<n>gb}
   */
  public static Optional<MigProfile> ofResource(String resourceName) {
    if (!isMigResource(resourceName)) {
      return Optional.empty();
    }
    Optional<MigProfile> p = wellFormed(resourceName);
    if (p.isEmpty()) {
      throw new IllegalArgumentException(
          "MIG resource "
              + resourceName
              + " does not name a profile of the form <g>g.<memory>gb, such as nvidia.com/mig-1g.10gb");
    }
    return p;
  }

  private static Optional<MigProfile> wellFormed(String resourceName) {
    if (!isMigResource(resourceName)) {
      return Optional.empty();
    }
    String profile = resourceName.substring(RESOURCE_PREFIX.length());
    Matcher m = NAME.matcher(profile);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new MigProfile(profile, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * GPUs that MIG instances count for: the profile's slices × the count, summed over the MIG
   * resources of {@code resources}; other resources, and MIG names that are not a profile (which
   * admission rejects, {@link #ofResource}), count nothing.
   */
  public static GpuAmount gpusOf(Map<String, Long> resources) {
    GpuAmount sum = GpuAmount.ZERO;
    for (Map.Entry<String, Long> e : resources.entrySet()) {
      Optional<MigProfile> p = wellFormed(e.getKey());
      if (p.isPresent()) {
        sum = sum.plus(GpuAmount.ofDevices(Math.multiplyExact(p.get().gpuSlices(), e.getValue())));
      }
    }
    return sum;
  }
}
