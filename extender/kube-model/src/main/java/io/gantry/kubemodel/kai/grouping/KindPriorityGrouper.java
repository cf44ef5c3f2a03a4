package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The default grouping with another kind default priority class: Kubeflow Notebooks ({@value
 * DefaultGrouper#BUILD}) and SPOTRequests ({@value DefaultGrouper#INFERENCE}), kai-reference §3.4.
 * Only the top owner's labels are read, as KAI's grouper for these kinds does.
 */
public final class KindPriorityGrouper implements Grouper {
  private final DefaultGrouper defaults;
  private final String kindDefault;

  public KindPriorityGrouper(DefaultGrouper defaults, String kindDefault) {
    this.defaults = requireNonNull(defaults, "defaults is null");
    this.kindDefault = requireNonNull(kindDefault, "kindDefault is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    OwnerMeta top = input.topOwner();
    return defaults.plan(top, List.of(top), input.pod(), kindDefault);
  }
}
