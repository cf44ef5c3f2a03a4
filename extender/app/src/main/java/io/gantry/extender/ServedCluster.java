package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.config.SchedulerConfig;

/**
 * A cluster opened for the extender, with what goes with it: the engine configuration to plan with
 * (the scheduler file's, or the scenario's {@code config:} block) and the label naming a pod's
 * queue.
 *
 * @param description what is served, for the start-up line ({@code pods of default-scheduler},
 *     {@code scenario FILE})
 */
public record ServedCluster(
    ExtenderCluster cluster, SchedulerConfig engine, String queueLabelKey, String description) {
  public ServedCluster {
    requireNonNull(cluster, "cluster is null");
    requireNonNull(engine, "engine is null");
    requireNonNull(queueLabelKey, "queueLabelKey is null");
    requireNonNull(description, "description is null");
  }
}
