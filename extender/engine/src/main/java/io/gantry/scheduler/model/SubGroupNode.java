package io.gantry.scheduler.model;

import java.util.Optional;

/**
 * A node of a job's SubGroup tree: a {@link PodSet} (leaf, holds pods) or a {@link SubGroupSet}
 * (inner, holds child SubGroups). Either may keep the pods beneath it inside one topology domain.
 */
public sealed interface SubGroupNode permits PodSet, SubGroupSet {
  String name();

  Optional<TopologyConstraint> topologyConstraint();
}
