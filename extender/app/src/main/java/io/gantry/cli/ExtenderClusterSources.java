package io.gantry.cli;

import io.gantry.extender.ExtenderClusterSource;
import io.gantry.extender.InMemoryCluster;
import io.gantry.extender.ServedCluster;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.LiveCluster;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.sim.ScenarioStart;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.nio.file.Path;

/**
 * The clusters {@code gantry extender} serves: a scenario file's, held in memory, or the live one.
 * Built here because each joins the extender to another front door (the simulator's scenario
 * reader, the live scheduler's caches), which only the command line may do.
 */
final class ExtenderClusterSources {
  private ExtenderClusterSources() {}

  /**
   * The cluster at the start of the scenario in {@code file}, with the scenario's engine
   * configuration and KAI's queue label key; read now, so a bad file fails before anything starts.
   *
   * @throws ScenarioException naming the file, line and key of the first problem
   */
  static ExtenderClusterSource scenario(Path file) throws ScenarioException {
    ScenarioSpec spec = ScenarioLoader.load(file);
    ScenarioStart start = ScenarioStart.of(spec);
    return clock ->
        new ServedCluster(
            new InMemoryCluster(
                start.snapshot(),
                ExtenderCommand.DEFAULT_SCHEDULER_NAME,
                QueueAssignment.DEFAULT_QUEUE_LABEL_KEY,
                new ScenarioRequestPods(spec)),
            start.config(),
            QueueAssignment.DEFAULT_QUEUE_LABEL_KEY,
            // a scenario has no scheduler file: its webhook prepares pods as the default mode does
            GpuSharingSpec.DEFAULTS.mode(),
            "scenario " + file);
  }

  /** The live cluster's pods of {@code settings}' scheduler, through its informer caches. */
  static ExtenderClusterSource live(SchedulerSettings settings) {
    return clock ->
        new ServedCluster(
            new KubeCluster(
                LiveCluster.start(
                    KubeClients.connect(settings.cluster(), settings.startupTimeout()),
                    settings,
                    clock),
                settings.schedulerName(),
                settings.queueLabelKey()),
            settings.engine(),
            settings.queueLabelKey(),
            settings.gpuSharing().mode(),
            "pods of " + settings.schedulerName());
  }
}
