package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;

/**
 * Told when a task starts or stops counting as allocated (allocated, binding, bound, running or
 * pipelined) during a session, including rollbacks, so plugin state follows the statement. {@code
 * gpus} is what the task counts for in its queue ({@link Session#quotaGpus}).
 */
public interface AllocationListener extends Plugin {
  void onAllocate(TaskState task, GpuAmount gpus);

  void onDeallocate(TaskState task, GpuAmount gpus);
}
