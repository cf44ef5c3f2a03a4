package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.OptionalLong;

/**
 * One task of a trace's task list: CPU, memory, GPUs ({@code gpuMilli} thousandths on each of
 * {@code gpus} devices; below 1000 only on one device, a shared GPU), the GPU models it accepts
 * (empty: any), and when it was created and deleted (seconds; deletion empty when it never was).
 */
public record TraceTask(
    String name,
    long cpuMillis,
    long memoryMib,
    int gpus,
    int gpuMilli,
    ImmutableList<String> gpuModels,
    long creationSeconds,
    OptionalLong deletionSeconds) {
  public TraceTask {
    requireNonNull(name, "name is null");
    requireNonNull(gpuModels, "gpuModels is null");
    requireNonNull(deletionSeconds, "deletionSeconds is null");
  }

  /** The GPU it asks for, in thousandths of a device: devices × per-device share. */
  public long gpuDemandMilli() {
    return (long) gpus * gpuMilli;
  }

  /** Whether it shares one GPU with other tasks. */
  public boolean shared() {
    return gpus == 1 && gpuMilli > 0 && gpuMilli < 1000;
  }
}
