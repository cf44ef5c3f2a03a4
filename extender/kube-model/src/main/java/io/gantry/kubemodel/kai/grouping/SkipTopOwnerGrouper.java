package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Top owners that only wrap another workload — Argo Workflows, Kubeflow TrainJobs (whose pods
 * belong to a JobSet), Run:ai workloads (kai-reference §3.4): the pod is grouped by the next owner
 * down, as that owner's kind groups it (a Workflow's pods, which it owns directly, are grouped as
 * pods). The next owner takes the skipped owner's per-type default priority class (when it exists)
 * and preemptibility as labels it lacks, and then, for the grouping of its kind, the skipped
 * owner's other labels and annotations it lacks.
 */
public final class SkipTopOwnerGrouper implements Grouper {
  private final DefaultGrouper defaults;
  private final Function<GroupingInput, PodGroupPlan> byKind;

  /**
   * @param byKind groups the next owner by its kind (the podgrouper's dispatch)
   */
  public SkipTopOwnerGrouper(
      DefaultGrouper defaults, Function<GroupingInput, PodGroupPlan> byKind) {
    this.defaults = requireNonNull(defaults, "defaults is null");
    this.byKind = requireNonNull(byKind, "byKind is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.SkipTopOwnerSpec spec =
        DefaultGrouper.spec(input, WorkloadSpec.SkipTopOwnerSpec.class);
    OwnerMeta skipped = input.topOwner();
    OwnerMeta next = spec.nextOwner().orElseGet(() -> input.pod().asOwner());
    OwnerMeta withDefaults = withTypeDefaults(next, skipped);
    TreeMap<String, String> labels = new TreeMap<>(withDefaults.labels());
    skipped.labels().forEach(labels::putIfAbsent);
    TreeMap<String, String> annotations = new TreeMap<>(withDefaults.annotations());
    skipped.annotations().forEach(annotations::putIfAbsent);
    OwnerMeta top = withDefaults.withMetadata(labels, annotations);
    if (spec.nextOwner().isEmpty()) {
      return byKind.apply(
          new GroupingInput(top, ImmutableList.of(), WorkloadSpec.PLAIN, input.pod()));
    }
    ImmutableList.Builder<OwnerMeta> owners = ImmutableList.builder();
    for (int i = 0; i < input.owners().size() - 1; i++) {
      OwnerMeta owner = input.owners().get(i);
      owners.add(owner.equals(next) ? withDefaults : owner);
    }
    return byKind.apply(new GroupingInput(top, owners.build(), spec.nextSpec(), input.pod()));
  }

  /** The next owner with the skipped type's defaults as labels where it has none. */
  private OwnerMeta withTypeDefaults(OwnerMeta next, OwnerMeta skipped) {
    Optional<WorkloadTypeDefaults.TypeDefault> typeDefault =
        defaults.config().typeDefaults().forType(skipped.group(), skipped.kind());
    if (typeDefault.isEmpty()) {
      return next;
    }
    TreeMap<String, String> labels = new TreeMap<>(next.labels());
    typeDefault
        .get()
        .priorityClassName()
        .filter(defaults.config().priorityClasses()::knows)
        .ifPresent(p -> labels.putIfAbsent(DefaultGrouper.PRIORITY_LABEL, p));
    typeDefault
        .get()
        .preemptibility()
        .filter(p -> !p.isEmpty())
        .ifPresent(p -> labels.putIfAbsent(DefaultGrouper.PREEMPTIBILITY_LABEL, p));
    return next.withMetadata(labels, next.annotations());
  }
}
