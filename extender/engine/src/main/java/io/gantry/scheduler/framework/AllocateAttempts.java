package io.gantry.scheduler.framework;

/**
 * Hears each job allocate takes from its queue order, before allocate tries it: the order allocate
 * actually uses, pushed-back jobs included. The cycle writes one under {@link #KEY} when its caller
 * listens; allocate reads it.
 */
@FunctionalInterface
public interface AllocateAttempts {
  StateKey<AllocateAttempts> KEY = new StateKey<>("allocateAttempts", AllocateAttempts.class);

  void tried(JobState job);
}
