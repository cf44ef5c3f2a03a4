package io.gantry.scheduler.sim.spec;

/** The status a task starts the simulation in. */
public enum InitialTaskStatus {
  PENDING("Pending", false),
  GATED("Gated", false),
  RUNNING("Running", true),
  BOUND("Bound", true),
  /** Placed on resources still being released (a KAI snapshot carries such tasks). */
  PIPELINED("Pipelined", true),
  RELEASING("Releasing", true),
  STUCK_IN_RELEASING("StuckInReleasing", true),
  SUCCEEDED("Succeeded", false),
  FAILED("Failed", false);

  private final String yamlName;
  private final boolean requiresNode;

  InitialTaskStatus(String yamlName, boolean requiresNode) {
    this.yamlName = yamlName;
    this.requiresNode = requiresNode;
  }

  public String yamlName() {
    return yamlName;
  }

  /** Whether a task in this status holds resources on a node, and so must name one. */
  public boolean requiresNode() {
    return requiresNode;
  }
}
