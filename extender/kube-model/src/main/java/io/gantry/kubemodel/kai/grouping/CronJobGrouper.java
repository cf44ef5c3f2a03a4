package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A CronJob's pods (kai-reference §3.4, "CronJob via its Job"): KAI groups them by the Job the
 * CronJob started, with the default rules over that Job — {@code pg-<job>-<job uid>}, owned by the
 * Job, minMember 1, {@value DefaultGrouper#TRAIN} by default. As in KAI's code, the Job's {@value
 * DefaultGrouper#MIN_MEMBER_OVERRIDE} is not read here.
 */
public final class CronJobGrouper implements Grouper {
  private final DefaultGrouper defaults;

  public CronJobGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    OwnerMeta job = DefaultGrouper.spec(input, WorkloadSpec.CronJobSpec.class).job();
    return defaults.plan(job, List.of(job), input.pod(), DefaultGrouper.TRAIN);
  }
}
