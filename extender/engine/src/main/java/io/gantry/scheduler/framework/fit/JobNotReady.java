package io.gantry.scheduler.framework.fit;

/**
 * A PodSet has fewer alive, non-gated pods than its {@code minMember} (kai-reference §4.4): {@code
 * existing} pods are alive, {@code gated} of them scheduling-gated.
 */
public record JobNotReady(long minMember, long existing, long gated) implements JobFitReason {
  @Override
  public Kind kind() {
    return Kind.JOB_NOT_READY;
  }

  @Override
  public Code code() {
    return Code.NOT_READY;
  }
}
