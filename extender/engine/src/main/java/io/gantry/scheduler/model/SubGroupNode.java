package io.gantry.scheduler.model;

/**
 * A node of a job's SubGroup tree: a {@link PodSet} (leaf, holds pods) or a {@link SubGroupSet}
 * (inner, holds child SubGroups).
 */
public sealed interface SubGroupNode permits PodSet, SubGroupSet {
  String name();
}
