package io.gantry.scheduler.model;

/**
 * Real-valued amounts of the three resources queues divide ({@link ResourceKind}): GPU devices, CPU
 * millicores, memory bytes. Fair shares, cluster capacity and what a queue holds are reported in
 * it; a component may be -1 where a caller says so (an unlimited allocatable share).
 */
public record ResourceVector(double gpus, double cpuMillis, double memoryBytes) {
  public static final ResourceVector ZERO = new ResourceVector(0, 0, 0);

  public ResourceVector {
    requireFinite("gpus", gpus);
    requireFinite("cpuMillis", cpuMillis);
    requireFinite("memoryBytes", memoryBytes);
  }

  /** GPUs, CPU and memory of {@code r}; extended resources are not divided among queues. */
  public static ResourceVector of(Resources r) {
    return new ResourceVector(r.gpus().toDouble(), r.cpuMillis(), r.memoryBytes());
  }

  public double get(ResourceKind kind) {
    return switch (kind) {
      case GPU -> gpus;
      case CPU -> cpuMillis;
      case MEMORY -> memoryBytes;
    };
  }

  public ResourceVector with(ResourceKind kind, double value) {
    return switch (kind) {
      case GPU -> new ResourceVector(value, cpuMillis, memoryBytes);
      case CPU -> new ResourceVector(gpus, value, memoryBytes);
      case MEMORY -> new ResourceVector(gpus, cpuMillis, value);
    };
  }

  public ResourceVector plus(ResourceVector other) {
    return new ResourceVector(
        gpus + other.gpus, cpuMillis + other.cpuMillis, memoryBytes + other.memoryBytes);
  }

  public ResourceVector minus(ResourceVector other) {
    return new ResourceVector(
        gpus - other.gpus, cpuMillis - other.cpuMillis, memoryBytes - other.memoryBytes);
  }

  private static void requireFinite(String component, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(component + " must be finite, was " + value);
    }
  }
}
