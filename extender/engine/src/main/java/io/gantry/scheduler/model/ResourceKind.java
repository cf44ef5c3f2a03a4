package io.gantry.scheduler.model;

/** The three resources queues divide and account (kai-reference §5.2). */
public enum ResourceKind {
  GPU("gpu"),
  CPU("cpu"),
  MEMORY("memory");

  private final String key;

  ResourceKind(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** The amount of this resource in {@code r}, GPUs as a decimal of devices. */
  public double of(Resources r) {
    return switch (this) {
      case GPU -> r.gpus().toDouble();
      case CPU -> r.cpuMillis();
      case MEMORY -> r.memoryBytes();
    };
  }
}
