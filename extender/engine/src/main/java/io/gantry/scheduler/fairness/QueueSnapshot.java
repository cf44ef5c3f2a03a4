package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.util.Optional;

/** A queue's quantities frozen at one moment (KAI clones the queue attributes per job solution). */
public record QueueSnapshot(
    String name,
    Optional<String> parent,
    ResourceVector deservedShares,
    ResourceVector allocatedShares,
    ResourceVector allocatedNonPreemptibleShares,
    ResourceVector fairShares,
    ResourceVector allocatableShares)
    implements QueueAmounts {
  public QueueSnapshot {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(deservedShares, "deservedShares is null");
    requireNonNull(allocatedShares, "allocatedShares is null");
    requireNonNull(allocatedNonPreemptibleShares, "allocatedNonPreemptibleShares is null");
    requireNonNull(fairShares, "fairShares is null");
    requireNonNull(allocatableShares, "allocatableShares is null");
  }

  static QueueSnapshot of(QueueAmounts q) {
    return new QueueSnapshot(
        q.name(),
        q.parent(),
        vector(q, Kind.DESERVED),
        vector(q, Kind.ALLOCATED),
        vector(q, Kind.ALLOCATED_NON_PREEMPTIBLE),
        vector(q, Kind.FAIR_SHARE),
        vector(q, Kind.ALLOCATABLE));
  }

  @Override
  public double deserved(ResourceKind r) {
    return deservedShares.get(r);
  }

  @Override
  public double allocated(ResourceKind r) {
    return allocatedShares.get(r);
  }

  @Override
  public double allocatedNonPreemptible(ResourceKind r) {
    return allocatedNonPreemptibleShares.get(r);
  }

  @Override
  public double fairShare(ResourceKind r) {
    return fairShares.get(r);
  }

  @Override
  public double allocatable(ResourceKind r) {
    return allocatableShares.get(r);
  }

  private enum Kind {
    DESERVED,
    ALLOCATED,
    ALLOCATED_NON_PREEMPTIBLE,
    FAIR_SHARE,
    ALLOCATABLE
  }

  private static ResourceVector vector(QueueAmounts q, Kind kind) {
    ResourceVector v = ResourceVector.ZERO;
    for (ResourceKind r : ResourceKind.values()) {
      double value =
          switch (kind) {
            case DESERVED -> q.deserved(r);
            case ALLOCATED -> q.allocated(r);
            case ALLOCATED_NON_PREEMPTIBLE -> q.allocatedNonPreemptible(r);
            case FAIR_SHARE -> q.fairShare(r);
            case ALLOCATABLE -> q.allocatable(r);
          };
      v = v.with(r, value);
    }
    return v;
  }
}
