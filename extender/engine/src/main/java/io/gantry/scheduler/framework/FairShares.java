package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.ResourceVector;
import java.util.Optional;

/**
 * The fair share each queue was divided this cycle (kai-reference §5.3), published in the cycle's
 * state under {@link #KEY} by the plugin that divides shares (proportion) when the session opens.
 */
public interface FairShares {
  StateKey<FairShares> KEY = new StateKey<>("fairShares", FairShares.class);

  /** Empty when the queue is not in the divided tree. */
  Optional<ResourceVector> fairShare(String queue);
}
