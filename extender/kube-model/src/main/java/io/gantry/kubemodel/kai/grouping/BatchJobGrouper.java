package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A {@code batch/v1} Job (kai-reference §3.4): one PodGroup {@code pg-<job>-<uid>} with minMember
 * 1, or the Job's {@value DefaultGrouper#MIN_MEMBER_OVERRIDE} annotation (a whole number of at
 * least 1); {@value DefaultGrouper#TRAIN} by default.
 */
public final class BatchJobGrouper implements Grouper {
  static final String MIN_MEMBER_FIELD =
      "metadata.annotations." + DefaultGrouper.MIN_MEMBER_OVERRIDE;

  private final DefaultGrouper defaults;

  public BatchJobGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    OwnerMeta job = input.topOwner();
    PodGroupPlan plan = defaults.plan(job, List.of(job), input.pod(), DefaultGrouper.TRAIN);
    String override = job.annotations().get(DefaultGrouper.MIN_MEMBER_OVERRIDE);
    return override == null
        ? plan
        : plan.withMinMember(DefaultGrouper.minMemberOverride(override, MIN_MEMBER_FIELD));
  }
}
