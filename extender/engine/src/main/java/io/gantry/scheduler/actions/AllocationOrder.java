package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import java.util.OptionalInt;

/**
 * The order in which allocate would try the session's waiting jobs if none of them were placed:
 * KAI's {@code reflectjoborder} (kai-reference §4.5), which pops allocate's queue order to the end
 * when the session opens, every job of every queue, without allocating. Allocate then tries the
 * same jobs, each queue's in this relative order; placements only change how queues interleave.
 */
public final class AllocationOrder {
  private AllocationOrder() {}

  /**
   * The waiting jobs of a freshly opened session, in order. Records on {@code session} the fit
   * errors allocate would (jobs of missing queues, unready jobs), so use a session of its own.
   */
  public static ImmutableList<JobState> of(Session session) {
    JobsOrderByQueues order =
        new JobsOrderByQueues(
            session.hooks(),
            session.snapshot().queues(),
            AllocateAction.candidates(session),
            OptionalInt.empty());
    ImmutableList.Builder<JobState> out = ImmutableList.builder();
    JobState job;
    while ((job = order.pop()) != null) {
      out.add(job);
      order.finish(job, false);
    }
    return out.build();
  }
}
