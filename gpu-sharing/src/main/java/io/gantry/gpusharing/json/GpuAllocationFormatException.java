package io.gantry.gpusharing.json;

import io.gantry.gpusharing.GpuAllocation;

/**
 * A {@value GpuAllocation#ANNOTATION} annotation this build cannot read: not JSON, another version,
 * or a field missing or wrong. The message names the field and what was expected.
 */
public final class GpuAllocationFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  GpuAllocationFormatException(String problem) {
    super("annotation " + GpuAllocation.ANNOTATION + ": " + problem);
  }
}
