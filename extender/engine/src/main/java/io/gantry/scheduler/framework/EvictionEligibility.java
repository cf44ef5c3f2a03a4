package io.gantry.scheduler.framework;

import java.util.List;

/**
 * Whether a pending job may start an eviction at all, by its queue's state (kai-reference §5.6.1,
 * §4.9). Only the first plugin implementing this hook is consulted, as in KAI (proportion).
 */
public interface EvictionEligibility extends Plugin {
  /**
   * KAI's CanReclaimResources: the job's leaf queue stays within its fair share with the job's next
   * pass, and a non-preemptible job also within its deserved quota.
   */
  boolean canReclaimResources(JobState reclaimer);

  /**
   * KAI's IsNonPreemptibleJobOverQueueQuota: placing {@code tasks} would take a non-preemptible
   * job's queue, at any level, past its deserved quota. Always false for a preemptible job.
   */
  boolean nonPreemptibleOverQuota(JobState job, List<TaskState> tasks);
}
