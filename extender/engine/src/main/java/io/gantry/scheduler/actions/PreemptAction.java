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

/**
 * KAI's preempt action (kai-reference §4.9): within one queue, a pending job evicts preemptible
 * jobs of strictly lower priority, never taking a non-preemptible job over its quota; the
 * min-runtime plugin filters and validates the victims. The search stops the action when its time
 * runs out.
 */
public final class PreemptAction implements Action {
  private final ActionContext context;

  public PreemptAction(ActionContext context) {
    this.context = context;
  }

  @Override
  public ActionType type() {
    return ActionType.PREEMPT;
  }

  @Override
  public void execute(Session session) {
    PluginHooks hooks = session.hooks();
    VictimSearch search =
        new VictimSearch(
            session,
            ActionType.PREEMPT,
            context,
            (preemptor, victims) -> victim -> EvictionReasons.preempt(victim, preemptor),
            scenario -> hooks.validScenario(ActionType.PREEMPT, scenario));
    TasksToAllocate tasksToAllocate = new TasksToAllocate(hooks);
    Map<String, FailedJobs> failedByQueue = new HashMap<>();
    JobsOrderByQueues order =
        new JobsOrderByQueues(
            hooks,
            session.snapshot().queues(),
            PreemptorCandidates.of(session),
            context.queueDepth(ActionType.PREEMPT));
    JobState job;
    while ((job = order.pop()) != null) {
      SearchResult result = null;
      FailedJobs failed = failedByQueue.computeIfAbsent(job.info().queue(), q -> new FailedJobs());
      List<TaskState> tasks = tasksToAllocate.of(job);
      if (failed.worthTrying(job)
          && VictimInvariantCheck.passes(session, job, tasks)
          && !hooks.nonPreemptibleOverQuota(job, tasks)) {
        JobState preemptor = job;
        result =
            search.search(
                job,
                () ->
                    VictimJobs.of(
                        session,
                        preemptor,
                        v ->
                            v.info().queue().equals(preemptor.info().queue())
                                && v.info().priority() < preemptor.info().priority()
                                && hooks.admitsVictim(ActionType.PREEMPT, preemptor, v)));
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
