package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.ResourceVector;
import java.util.Optional;

/**
 * Each queue's deserved quota, fair share and current allocation (GPU devices, CPU millicores,
 * memory bytes; -1 unlimited), as the plugin that divides shares (proportion) keeps them during the
 * cycle. Published under {@link #KEY} at session open; reads are live. Eviction messages quote it.
 */
public interface QueueShares {
  StateKey<QueueShares> KEY = new StateKey<>("queueShares", QueueShares.class);

  /** Empty when the queue is not in the divided tree. */
  Optional<Amounts> of(String queue);

  /** One queue's amounts and its priority. */
  record Amounts(
      ResourceVector deserved, ResourceVector fairShare, ResourceVector allocated, int priority) {}
}
