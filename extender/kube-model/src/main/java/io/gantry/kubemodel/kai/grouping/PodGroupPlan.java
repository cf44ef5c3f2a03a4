package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.PodGroupShape;
import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The PodGroup KAI's podgrouper makes for a pod, and the leaf SubGroup the pod belongs to. As in
 * KAI, {@code minMember} is written unless {@code minSubGroup} is (the scheduler ignores {@code
 * minMember} once there are SubGroups); {@link #tree()} is the gang the scheduler reads.
 *
 * @param owner the PodGroup's owner reference (the top owner, or the pod for per-pod PodGroups)
 * @param labels the top owner's labels, which the PodGroup inherits
 * @param annotations the top owner's annotations, which the PodGroup inherits, and those a kind
 *     adds
 * @param podSubGroup the value of the pod's {@code kai.scheduler/subgroup-name} label; empty when
 *     the PodGroup has no SubGroups
 */
public record PodGroupPlan(
    String name,
    String namespace,
    PodGroupOwner owner,
    OptionalInt minMember,
    OptionalInt minSubGroup,
    ImmutableList<PlannedSubGroup> subGroups,
    String queue,
    String priorityClassName,
    Optional<Preemptibility> preemptibility,
    Optional<TopologyConstraint> topologyConstraint,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations,
    Optional<String> podSubGroup) {
  public PodGroupPlan {
    requireNonNull(name, "name is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(owner, "owner is null");
    requireNonNull(minMember, "minMember is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    requireNonNull(subGroups, "subGroups is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(priorityClassName, "priorityClassName is null");
    requireNonNull(preemptibility, "preemptibility is null");
    requireNonNull(topologyConstraint, "topologyConstraint is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
    requireNonNull(podSubGroup, "podSubGroup is null");
  }

  /** The gang as the scheduler reads it, checked against KAI's PodGroup shape rules. */
  public SubGroupSet tree() {
    return PodGroupShape.tree(
        minMember, minSubGroup, subGroups.stream().map(PlannedSubGroup::definition).toList());
  }

  /** The job's priority: the class's value, or the cluster default when the class is unknown. */
  public int priority(PriorityClassTable priorityClasses) {
    return priorityClasses.priorityOf(Optional.of(priorityClassName));
  }

  public boolean preemptible(PriorityClassTable priorityClasses) {
    return Preemptibility.isPreemptible(preemptibility, priority(priorityClasses));
  }

  public PodGroupPlan withName(String newName) {
    return new PodGroupPlan(
        newName,
        namespace,
        owner,
        minMember,
        minSubGroup,
        subGroups,
        queue,
        priorityClassName,
        preemptibility,
        topologyConstraint,
        labels,
        annotations,
        podSubGroup);
  }

  public PodGroupPlan withOwner(PodGroupOwner newOwner) {
    return new PodGroupPlan(
        name,
        namespace,
        newOwner,
        minMember,
        minSubGroup,
        subGroups,
        queue,
        priorityClassName,
        preemptibility,
        topologyConstraint,
        labels,
        annotations,
        podSubGroup);
  }

  /** A flat gang of {@code newMinMember} pods. */
  public PodGroupPlan withMinMember(int newMinMember) {
    return new PodGroupPlan(
        name,
        namespace,
        owner,
        OptionalInt.of(newMinMember),
        OptionalInt.empty(),
        subGroups,
        queue,
        priorityClassName,
        preemptibility,
        topologyConstraint,
        labels,
        annotations,
        podSubGroup);
  }

  /**
   * The SubGroup tree, the root's requirement ({@code minMember} kept when {@code minSubGroup} is
   * empty, as KAI writes it) and the pod's leaf.
   */
  public PodGroupPlan withSubGroups(
      OptionalInt newMinSubGroup, List<PlannedSubGroup> newSubGroups, Optional<String> leaf) {
    return new PodGroupPlan(
        name,
        namespace,
        owner,
        newMinSubGroup.isPresent() ? OptionalInt.empty() : minMember,
        newMinSubGroup,
        ImmutableList.copyOf(newSubGroups),
        queue,
        priorityClassName,
        preemptibility,
        topologyConstraint,
        labels,
        annotations,
        leaf);
  }

  public PodGroupPlan withPriorityClassName(String newPriorityClassName) {
    return new PodGroupPlan(
        name,
        namespace,
        owner,
        minMember,
        minSubGroup,
        subGroups,
        queue,
        newPriorityClassName,
        preemptibility,
        topologyConstraint,
        labels,
        annotations,
        podSubGroup);
  }

  public PodGroupPlan withAnnotation(String key, String value) {
    ImmutableSortedMap.Builder<String, String> merged = ImmutableSortedMap.naturalOrder();
    annotations.forEach(
        (k, v) -> {
          if (!k.equals(key)) {
            merged.put(k, v);
          }
        });
    merged.put(key, value);
    return new PodGroupPlan(
        name,
        namespace,
        owner,
        minMember,
        minSubGroup,
        subGroups,
        queue,
        priorityClassName,
        preemptibility,
        topologyConstraint,
        labels,
        merged.build(),
        podSubGroup);
  }
}
