package io.gantry.scheduler.model;

/** KAI's task status model (kai-reference §4.2); the last two are internal to a session. */
public enum TaskStatus {
  PENDING("Pending"),
  GATED("Gated"),
  ALLOCATED("Binding"),
  PIPELINED("Pipelined"),
  BINDING("Binding"),
  BOUND("Bound"),
  RUNNING("Running"),
  RELEASING("Releasing"),
  STUCK_IN_RELEASING("StuckInReleasing"),
  SUCCEEDED("Succeeded"),
  FAILED("Failed");

  private final String displayName;

  TaskStatus(String displayName) {
    this.displayName = displayName;
  }

  /** The name a user sees; a task allocated in this run is reported as {@code Binding}. */
  public String displayName() {
    return displayName;
  }

  public boolean isAlive() {
    return switch (this) {
      case PENDING, GATED, ALLOCATED, PIPELINED, BINDING, BOUND, RUNNING -> true;
      default -> false;
    };
  }

  public boolean isActiveAllocated() {
    return switch (this) {
      case ALLOCATED, PIPELINED, BINDING, BOUND, RUNNING -> true;
      default -> false;
    };
  }

  public boolean isActiveUsed() {
    return isActiveAllocated() || this == RELEASING || this == STUCK_IN_RELEASING;
  }

  /** Counted in queue usage (kai-reference §4.2 "allocated"). */
  public boolean isAllocated() {
    return switch (this) {
      case ALLOCATED, BINDING, BOUND, RUNNING -> true;
      default -> false;
    };
  }

  public boolean isReleasing() {
    return this == RELEASING || this == STUCK_IN_RELEASING;
  }

  /** Holds resources on its node (allocated, pipelined onto releasing resources, or releasing). */
  public boolean holdsNodeResources() {
    return isAllocated() || isReleasing();
  }
}
