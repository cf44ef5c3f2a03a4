package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.JobOrder;
import io.gantry.scheduler.framework.JobState;

/** Higher job priority first (kai-reference §4.5 JobOrderFn 1). */
public final class PriorityPlugin implements JobOrder {
  public static final String NAME = "priority";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int compareJobs(JobState a, JobState b) {
    return Integer.compare(b.info().priority(), a.info().priority());
  }
}
