package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TasksToAllocate;
import java.util.HashMap;
import java.util.Map;

/**
 * KAI's reclaim action (kai-reference §4.8): pending jobs in queue order take resources from other
 * queues — only when their own queue stays within its fair share with them (§5.6.1), only from
 * queues the §5.6.2 pre-filter and the min-runtime plugin admit, and only in scenarios every queue
 * stays fair in (§5.6.3). The search stops the action when its time runs out.
 */
public final class ReclaimAction implements Action {
  private final ActionContext context;

  public ReclaimAction(ActionContext context) {
    this.context = context;
  }

  @Override
  public ActionType type() {
    return ActionType.RECLAIM;
  }

  @Override
  public void execute(Session session) {
    PluginHooks hooks = session.hooks();
    VictimSearch search =
        new VictimSearch(
            session,
            ActionType.RECLAIM,
            context,
            (victim, reclaimer) -> EvictionReasons.reclaim(session, victim, reclaimer),
            scenario -> hooks.validScenario(ActionType.RECLAIM, scenario));
    TasksToAllocate tasksToAllocate = new TasksToAllocate(hooks);
    Map<String, FailedJobs> failedByQueue = new HashMap<>();
    JobsOrderByQueues order =
        new JobsOrderByQueues(
            hooks,
            session.snapshot().queues(),
            PreemptorCandidates.of(session),
            context.queueDepth(ActionType.RECLAIM));
    JobState job;
    while ((job = order.pop()) != null) {
      SearchResult result = null;
      FailedJobs failed = failedByQueue.computeIfAbsent(job.info().queue(), q -> new FailedJobs());
      if (hooks.canReclaimResources(job)
          && failed.worthTrying(job)
          && VictimInvariantCheck.passes(session, job, tasksToAllocate.of(job))) {
        JobState reclaimer = job;
        result =
            search.search(
                job,
                () ->
                    VictimJobs.of(
                        session,
                        reclaimer,
                        v ->
                            !v.info().queue().equals(reclaimer.info().queue())
                                && hooks.admitsVictim(ActionType.RECLAIM, reclaimer, v)));
        if (result != SearchResult.SOLVED) {
          failed.recordFailure(job);
        }
      }
      order.finish(job, false);
      if (result != null && result.stopsAction()) {
        return;
      }
    }
  }
}
