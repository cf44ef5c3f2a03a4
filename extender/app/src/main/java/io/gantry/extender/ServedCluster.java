package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.scheduler.api.config.SchedulerConfig;

/**
 * A cluster opened for the extender, with what goes with it: the engine configuration to plan with
 * (the scheduler file's, or the scenario's {@code config:} block) and the label naming a pod's
 * queue.
 *
 * @param gpuSharing how fraction pods get their GPU, which the admission webhook prepares them for
 * @param description what is served, for the start-up line ({@code pods of default-scheduler},
 *     {@code scenario FILE})
 */
public record ServedCluster(
    ExtenderCluster cluster,
    SchedulerConfig engine,
    String queueLabelKey,
    GpuSharingMode gpuSharing,
    String description) {
  public ServedCluster {
    requireNonNull(gpuSharing, "gpuSharing is null");
    requireNonNull(cluster, "cluster is null");
    requireNonNull(engine, "engine is null");
    requireNonNull(queueLabelKey, "queueLabelKey is null");
    requireNonNull(description, "description is null");
  }
}
