package io.gantry.scheduler.framework;

/**
 * Told when a task starts or stops counting as allocated (allocated, binding, bound, running or
 * pipelined) during a session, including rollbacks, so plugin state follows the statement.
 */
public interface AllocationListener extends Plugin {
  void onAllocate(TaskState task, double gpus);

  void onDeallocate(TaskState task, double gpus);
}
