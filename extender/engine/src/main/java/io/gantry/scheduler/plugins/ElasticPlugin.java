package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.JobOrder;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.TaskStatus;

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
    return Integer.compare(rank(a), rank(b));
  }

  private static int rank(JobState job) {
    boolean allExact = true;
    for (PodSet p : job.podSets()) {
      long allocated = job.count(p, TaskStatus::isActiveAllocated);
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
