package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.JobOrder;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.PodSet;
import java.util.List;
import java.util.function.Predicate;

/**
 * Jobs with a PodSet below its minMember first, then jobs exactly at minMember, then jobs above it
 * (kai-reference §4.5 JobOrderFn 2), so gangs start before running jobs grow.
 */
public final class ElasticPlugin implements JobOrder {
  public static final String NAME = "elastic";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int compareJobs(JobState a, JobState b) {
    return Integer.compare(rank(a, t -> true), rank(b, t -> true));
  }

  /** A victim job ranks by the tasks not taken from it yet (kai-reference §4.11). */
  @Override
  public int compareVictimJobs(
      JobState a, Predicate<TaskState> leftA, JobState b, Predicate<TaskState> leftB) {
    return Integer.compare(rank(a, leftA), rank(b, leftB));
  }

  private static int rank(JobState job, Predicate<TaskState> counted) {
    boolean allExact = true;
    // indexed: asked on every comparison of the job heaps, where iterators over most jobs' one
    // PodSet and one task would be all the garbage
    List<PodSet> podSets = job.podSets();
    for (int i = 0; i < podSets.size(); i++) {
      PodSet p = podSets.get(i);
      List<TaskState> tasks = job.tasks(p);
      long allocated = 0;
      for (int j = 0; j < tasks.size(); j++) {
        TaskState t = tasks.get(j);
        if (t.status().isActiveAllocated() && counted.test(t)) {
          allocated++;
        }
      }
      if (allocated < p.minMember()) {
        return 0;
      }
      if (allocated > p.minMember()) {
        allExact = false;
      }
    }
    return allExact ? 1 : 2;
  }
}
