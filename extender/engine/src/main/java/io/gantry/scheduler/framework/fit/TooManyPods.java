package io.gantry.scheduler.framework.fit;

/** The node already runs its maximum number of pods. */
public record TooManyPods(int maxPods) implements NodeFitReason {
  @Override
  public Kind kind() {
    return Kind.TOO_MANY_PODS;
  }
}
