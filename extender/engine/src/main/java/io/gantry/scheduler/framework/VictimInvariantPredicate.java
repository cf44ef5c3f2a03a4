package io.gantry.scheduler.framework;

/**
 * The part of a node predicate that no eviction can change: readiness, cordon, node affinity,
 * taints. An eviction action asks it before searching for victims, so a job that no node could ever
 * take is not searched for. All plugins must pass; the first failure is reported.
 */
public interface VictimInvariantPredicate extends Plugin {
  FitStatus filterVictimInvariant(TaskState task, NodeState node);
}
