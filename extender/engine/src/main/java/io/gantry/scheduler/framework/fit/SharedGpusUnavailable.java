package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.GpuAmount;

/**
 * A shared-GPU task needs {@code devices} devices with {@code portion} free on each (a shared GPU
 * with room, or a whole free GPU and two free pod slots), and the node has fewer. {@code byMemory}:
 * the task asks for GPU memory rather than a fraction, which KAI does not report (see {@link
 * #reported}).
 */
public record SharedGpusUnavailable(int devices, GpuAmount portion, boolean byMemory)
    implements NodeFitReason {
  public SharedGpusUnavailable {
    requireNonNull(portion, "portion is null");
  }

  @Override
  public Kind kind() {
    return Kind.SHARED_GPUS_UNAVAILABLE;
  }

  /**
   * Whether KAI names the node in its summary. KAI's FittingError compares the request vector with
   * the node's idle vector, and a GPU-memory request carries no GPU amount there, so a node short
   * only of shared GPU room yields no fit error and is left out of "no nodes with enough resources
   * were found" (allocateGpuMemory_test.go "overlimit on available nodes, not overlimit on full
   * largest-memory node"); a fraction request counts its fraction and is reported.
   */
  public boolean reported() {
    return !byMemory;
  }
}
