package io.gantry.scheduler.fairness;

import io.gantry.scheduler.model.ResourceKind;
import java.util.Optional;

/**
 * A queue's quantities as the reclaim rules read them (kai-reference §5.2): live ({@link
 * QueueAttributes}) or as captured when a preemptor's victim search started ({@link
 * QueueSnapshot}). {@code -1} means unlimited for deserved and allocatable.
 */
public interface QueueAmounts {
  String name();

  Optional<String> parent();

  double deserved(ResourceKind r);

  double allocated(ResourceKind r);

  double allocatedNonPreemptible(ResourceKind r);

  double fairShare(ResourceKind r);

  double allocatable(ResourceKind r);
}
