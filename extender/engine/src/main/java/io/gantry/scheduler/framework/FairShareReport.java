package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.ResourceVector;
import java.util.Optional;

/**
 * Reports the fair share a plugin divided for a queue this cycle. Only the first plugin that
 * implements this hook is read, as only the first capacity policy is consulted; empty when the
 * queue is not in its tree. Called after the actions ran, on the cycle's thread.
 */
public interface FairShareReport extends Plugin {
  Optional<ResourceVector> fairShare(String queue);
}
