package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.ClaimAllocation;

/**
 * Knows the DRA claim allocations a placed task holds in this session. Asked right after a task is
 * allocated, so its bind decision carries them; the first plugin that implements it answers.
 */
public interface ClaimAllocationSource extends Plugin {
  ImmutableList<ClaimAllocation> claimAllocations(TaskState task);
}
