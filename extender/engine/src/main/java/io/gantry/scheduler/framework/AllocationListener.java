package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;

/**
 * Told when a task starts or stops counting as allocated (allocated, binding, bound, running or
 * pipelined) during a session, including rollbacks, so plugin state follows the statement. {@code
 * gpus} is what the move adds to or frees from the task's queue: its own GPUs, and the GPUs of a
 * shared DRA claim only when it is the first to hold it on the node or the last to let it go.
 */
public interface AllocationListener extends Plugin {
  void onAllocate(TaskState task, GpuAmount gpus);

  void onDeallocate(TaskState task, GpuAmount gpus);
}
