package io.gantry.scheduler.api.result;

/** GPUs (devices, fractions allowed), CPU (millicores) and memory (bytes) of a queue. */
public record ResourceAmounts(double gpus, double cpuMillis, double memoryBytes) {
  public static final ResourceAmounts ZERO = new ResourceAmounts(0, 0, 0);
}
