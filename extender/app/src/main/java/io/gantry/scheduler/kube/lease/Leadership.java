package io.gantry.scheduler.kube.lease;

/**
 * Whether this scheduler may write to the cluster now. Only the leader groups pods, binds, evicts
 * and writes status; a standby keeps its caches warm and takes over when it becomes the leader.
 */
@FunctionalInterface
public interface Leadership {
  /** For a single replica run without leader election. */
  Leadership ALWAYS = () -> true;

  boolean isLeader();
}
