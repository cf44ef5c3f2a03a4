package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.GpuAmount;

/**
 * A shared-GPU task needs {@code devices} devices with {@code portion} free on each (a shared GPU
 * with room, or a whole free GPU and two free pod slots), and the node has fewer.
 */
public record SharedGpusUnavailable(int devices, GpuAmount portion) implements NodeFitReason {
  public SharedGpusUnavailable {
    requireNonNull(portion, "portion is null");
  }

  @Override
  public Kind kind() {
    return Kind.SHARED_GPUS_UNAVAILABLE;
  }
}
