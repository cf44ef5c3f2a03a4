package io.gantry.scheduler.actions;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.MigProfile;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.ReclaimCeiling;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.TaskInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether a reclaimer's whole-GPU tasks are out of reach of any scenario, checked before its victim
 * search: placing them needs as many whole devices idle or being released as they ask for, and a
 * scenario can add only what its victims give up for good — whole-GPU victims no more than the
 * reclaim validators let go ({@link ReclaimCeiling}: a victim re-placed gives nothing), a
 * shared-GPU victim at most the devices it shares. When even that falls short, the search could
 * find nothing and is skipped; the job's fit message is the one the search would have left.
 * Reclaimers with shared or MIG tasks, and victims holding MIG slices, are always searched for.
 */
final class ReclaimReach {
  /** Slack for the validators' floating-point queue amounts; GPUs are counted in hundredths. */
  private static final double EPS = 1e-6;

  private ReclaimReach() {}

  /** True when no scenario could place every task of {@code tasks}. */
  static boolean outOfReach(
      Session session, JobState reclaimer, List<TaskState> tasks, List<JobState> victimJobs) {
    GpuAmount demand = GpuAmount.ZERO;
    for (TaskState t : tasks) {
      if (t.info().isShared() || holdsMig(t.info())) {
        return false;
      }
      demand = demand.plus(t.info().request().gpus());
    }
    if (!demand.isPositive()) {
      return false;
    }
    GpuAmount free = GpuAmount.ZERO;
    for (NodeState n : session.nodes()) {
      free = free.plus(n.idleOrReleasing().gpus().max(GpuAmount.ZERO));
    }
    GpuAmount sharedDevices = GpuAmount.ZERO;
    Map<String, ReclaimCeiling.VictimGpus> victims = new TreeMap<>();
    for (JobState job : victimJobs) {
      GpuAmount whole = GpuAmount.ZERO;
      List<TaskState> jobVictims = new ArrayList<>();
      for (TaskState t : job.tasks()) {
        if (!VictimAccumulator.isVictimTask(t)) {
          continue;
        }
        if (holdsMig(t.info())) {
          return false;
        }
        if (t.info().isShared()) {
          sharedDevices = sharedDevices.plus(GpuAmount.ofDevices(t.gpuGroups().size()));
        } else {
          whole = whole.plus(t.info().request().gpus());
        }
        jobVictims.add(t);
      }
      double wholeGpus = whole.toDouble();
      // everything the job holds, a DRA GPU claim it shares with another job included: a chunk
      // that takes the claim's last holder frees it, so no chunk of the job frees more
      double jobGpus = session.heldGpus(jobVictims).toDouble();
      victims.merge(
          job.info().queue(),
          new ReclaimCeiling.VictimGpus(wholeGpus, jobGpus),
          (a, b) ->
              new ReclaimCeiling.VictimGpus(
                  a.gpus() + b.gpus(), Math.max(a.largestJobGpus(), b.largestJobGpus())));
    }
    double reachable =
        free.toDouble()
            + sharedDevices.toDouble()
            + session.hooks().reclaimableGpus(reclaimer, victims);
    return demand.toDouble() > reachable + EPS;
  }

  private static boolean holdsMig(TaskInfo task) {
    return task.request().extended().keySet().stream().anyMatch(MigProfile::isMigResource);
  }
}
