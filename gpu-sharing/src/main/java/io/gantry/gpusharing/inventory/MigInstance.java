package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * One MIG device of a GPU. nvidia-smi -q -x gives the ids, memory and SM count; the profile name
 * (for example 1g.10gb) and the MIG UUID come from nvidia-smi -L and are empty when it did not list
 * them.
 */
public record MigInstance(
    int index,
    int gpuInstanceId,
    int computeInstanceId,
    Optional<String> profile,
    Optional<String> uuid,
    long memoryMib,
    OptionalInt multiprocessorCount) {

  public MigInstance {
    requireNonNull(profile, "profile is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(multiprocessorCount, "multiprocessorCount is null");
    if (index < 0 || gpuInstanceId < 0 || computeInstanceId < 0 || memoryMib < 0) {
      throw new IllegalArgumentException(
          "MIG device ids and memory cannot be negative: index "
              + index
              + ", gpuInstanceId "
              + gpuInstanceId
              + ", computeInstanceId "
              + computeInstanceId
              + ", memoryMib "
              + memoryMib);
    }
  }

  /** This instance with the profile and UUID that nvidia-smi -L gives for it. */
  public MigInstance withIdentity(String profile, String uuid) {
    return new MigInstance(
        index,
        gpuInstanceId,
        computeInstanceId,
        Optional.of(profile),
        Optional.of(uuid),
        memoryMib,
        multiprocessorCount);
  }
}
