package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

/**
 * The pool a ResourceSlice belongs to. Consumers use only the slices of a pool's highest {@code
 * generation}; the pool is complete once {@code resourceSliceCount} slices of it are seen.
 */
public record ResourcePool(String name, long generation, long resourceSliceCount) {
  public ResourcePool {
    requireNonNull(name, "name is null");
    if (generation < 0) {
      throw new IllegalArgumentException("pool.generation must be >= 0, got " + generation);
    }
    if (resourceSliceCount <= 0) {
      throw new IllegalArgumentException(
          "pool.resourceSliceCount must be > 0, got " + resourceSliceCount);
    }
  }
}
