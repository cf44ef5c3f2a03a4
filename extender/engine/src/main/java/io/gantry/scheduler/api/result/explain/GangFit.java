package io.gantry.scheduler.api.result.explain;

/**
 * A job's gang: {@code minMember} tasks (summed over its PodSets) must be placed together, it has
 * {@code tasks} in all, and {@code membersFit} found a place in the cycle's last attempt (all its
 * allocated tasks once it runs).
 */
public record GangFit(long minMember, long tasks, long membersFit) {}
