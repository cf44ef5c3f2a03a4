package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

/** One node of a trace's node list: CPU, memory, GPU devices and their model. */
public record TraceNode(String name, long cpuMillis, long memoryMib, int gpus, String model) {
  public TraceNode {
    requireNonNull(name, "name is null");
    requireNonNull(model, "model is null");
  }

  /** GPU capacity in thousandths of a device, the trace's unit. */
  public long gpuMilli() {
    return gpus * 1000L;
  }
}
