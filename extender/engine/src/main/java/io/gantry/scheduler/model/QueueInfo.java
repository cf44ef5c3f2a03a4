package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/** One Queue, with quantities already in engine units (memory quota MB converted to bytes). */
public record QueueInfo(
    String name,
    Optional<String> parent,
    int priority,
    QueueResource gpu,
    QueueResource cpu,
    QueueResource memory,
    Optional<Duration> preemptMinRuntime,
    Optional<Duration> reclaimMinRuntime,
    long creationOrder) {

  public static final int DEFAULT_PRIORITY = 100;

  /**
   * KAI's default key of the label naming a workload's queue. Here, below the plugins, because the
   * engine's shared-GPU-claim rule reads it too; kube-model's {@code QueueAssignment} names it.
   */
  public static final String DEFAULT_QUEUE_LABEL_KEY = "kai.scheduler/queue";

  public QueueInfo {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(gpu, "gpu is null");
    requireNonNull(cpu, "cpu is null");
    requireNonNull(memory, "memory is null");
    requireNonNull(preemptMinRuntime, "preemptMinRuntime is null");
    requireNonNull(reclaimMinRuntime, "reclaimMinRuntime is null");
  }

  public QueueResource resource(ResourceKind kind) {
    return switch (kind) {
      case GPU -> gpu;
      case CPU -> cpu;
      case MEMORY -> memory;
    };
  }
}
