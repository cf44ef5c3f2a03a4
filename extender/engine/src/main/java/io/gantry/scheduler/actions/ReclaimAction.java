package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * KAI's reclaim action (kai-reference §4.8): pending jobs in queue order take resources from other
 * queues — only when their own queue stays within its fair share with them (§5.6.1), only from
 * queues the §5.6.2 pre-filter and the min-runtime plugin admit, and only in scenarios every queue
 * stays fair in (§5.6.3). A job whose GPUs no such scenario could free ({@link ReclaimReach}) is
 * not searched for. The search stops the action when its time runs out.
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
            (reclaimer, victims) -> EvictionReasons.reclaim(session, reclaimer, victims),
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
      List<TaskState> tasks = tasksToAllocate.of(job);
      if (hooks.canReclaimResources(job)
          && failed.worthTrying(job)
          && VictimInvariantCheck.passes(session, job, tasks)) {
        JobState reclaimer = job;
        Supplier<List<JobState>> victims =
            () ->
                VictimJobs.of(
                    session,
                    reclaimer,
                    v ->
                        !v.info().queue().equals(reclaimer.info().queue())
                            && hooks.admitsVictim(ActionType.RECLAIM, reclaimer, v));
        result =
            session
                    .search()
                    .skipsReclaimer(
                        () -> ReclaimReach.outOfReach(session, reclaimer, tasks, victims.get()))
                ? SearchResult.GENERATORS_EXHAUSTED
                : search.search(job, victims);
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
