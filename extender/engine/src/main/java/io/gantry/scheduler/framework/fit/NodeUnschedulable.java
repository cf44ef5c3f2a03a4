package io.gantry.scheduler.framework.fit;

/** The node is cordoned and the pod does not tolerate {@code node.kubernetes.io/unschedulable}. */
public record NodeUnschedulable() implements NodeFitReason {
  @Override
  public Kind kind() {
    return Kind.NODE_UNSCHEDULABLE;
  }
}
