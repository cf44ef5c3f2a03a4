package io.gantry.scheduler.actions;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.EvictionScenario;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * KAI's consolidation action (kai-reference §4.7, §10.5): a pending preemptible job that fits
 * nowhere although the cluster has enough free GPUs moves preemptible running pods — of any queue —
 * to make room, only in scenarios where every moved pod is placed again. Disabled with any {@code
 * spread} placement and with {@code maxConsolidationPreemptees} 0.
 */
public final class ConsolidationAction implements Action {
  private static final int UNLIMITED = -1;

  private final ActionContext context;

  public ConsolidationAction(ActionContext context) {
    this.context = context;
  }

  @Override
  public ActionType type() {
    return ActionType.CONSOLIDATION;
  }

  @Override
  public void execute(Session session) {
    int maxPreemptees = context.evictions().maxConsolidationPreemptees();
    if (maxPreemptees == 0
        || context.placement().gpu() == PlacementStrategy.SPREAD
        || context.placement().cpu() == PlacementStrategy.SPREAD) {
      return;
    }
    PluginHooks hooks = session.hooks();
    VictimSearch search =
        new VictimSearch(
            session,
            ActionType.CONSOLIDATION,
            context,
            (preemptor, victims) -> EvictionReasons::consolidate,
            ConsolidationAction::everyVictimReplaced);
    TasksToAllocate tasksToAllocate = new TasksToAllocate(hooks);
    FailedJobs failed = new FailedJobs();
    List<JobState> candidates = new ArrayList<>();
    for (JobState job : PreemptorCandidates.of(session)) {
      if (job.info().preemptible()) {
        candidates.add(job);
      }
    }
    JobsOrderByQueues order =
        new JobsOrderByQueues(
            hooks,
            session.snapshot().queues(),
            candidates,
            context.queueDepth(ActionType.CONSOLIDATION));
    JobState job;
    while ((job = order.pop()) != null) {
      SearchResult result = null;
      List<TaskState> tasks = tasksToAllocate.of(job);
      if (failed.worthTrying(job)
          && VictimInvariantCheck.passes(session, job, tasks)
          && enoughFreeGpus(session, tasks)) {
        JobState preemptor = job;
        result = search.search(job, () -> victims(session, preemptor, maxPreemptees));
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

  /** At most about {@code maxPreemptees} running preemptible jobs, as KAI counts them. */
  private static List<JobState> victims(Session session, JobState preemptor, int maxPreemptees) {
    int[] taken = {0};
    return VictimJobs.of(
        session,
        preemptor,
        v -> {
          if (maxPreemptees != UNLIMITED && taken[0] > maxPreemptees) {
            return false;
          }
          taken[0]++;
          return true;
        });
  }

  /** Consolidation only moves pods: no victim may be left releasing. */
  private static boolean everyVictimReplaced(EvictionScenario scenario) {
    for (TaskState v : scenario.victims()) {
      if (v.status() == TaskStatus.RELEASING) {
        return false;
      }
    }
    return true;
  }

  /** The cluster's idle and releasing GPUs cover what the job's next pass asks for. */
  private static boolean enoughFreeGpus(Session session, List<TaskState> tasks) {
    GpuAmount requested = session.quotaGpus(tasks);
    GpuAmount free = GpuAmount.ZERO;
    for (NodeState n : session.nodes()) {
      if (n.info().ready()) {
        free = free.plus(n.idleOrReleasing().gpus().max(GpuAmount.ZERO));
        for (var g : n.gpuGroups()) {
          free = free.plus(g.idleOrReleasingPortion());
        }
      }
    }
    return free.compareTo(requested) >= 0;
  }
}
