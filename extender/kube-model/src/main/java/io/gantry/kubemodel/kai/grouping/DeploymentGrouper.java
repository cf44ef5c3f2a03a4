package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A Deployment's pods (kai-reference §3.4): one PodGroup per pod, {@code pg-<pod>-<pod uid>}, owned
 * by the pod, minMember 1, {@value DefaultGrouper#INFERENCE} by default. Queue, labels and topology
 * still come from the Deployment.
 */
public final class DeploymentGrouper implements Grouper {
  private final DefaultGrouper defaults;

  public DeploymentGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    OwnerMeta top = input.topOwner();
    PodMeta pod = input.pod();
    List<OwnerMeta> owners = List.of(top);
    return defaults
        .plan(top, owners, pod, DefaultGrouper.TRAIN)
        .withName(DefaultGrouper.name(pod.name(), pod.uid()))
        .withOwner(new PodGroupOwner("v1", "Pod", pod.name(), pod.uid()))
        .withPriorityClassName(defaults.priorityClassName(owners, pod, DefaultGrouper.INFERENCE));
  }
}
