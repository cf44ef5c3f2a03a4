package io.gantry.extender;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.sim.ScenarioStart;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.time.Clock;

/** Extenders over inline scenario files, for tests. */
final class Scenarios {
  private Scenarios() {}

  record Served(InMemoryCluster cluster, Extender extender) {}

  static Served serve(String yaml, ExtenderSettings settings, Clock clock) {
    try {
      ScenarioStart start = ScenarioStart.of(ScenarioLoader.parse("test.yaml", yaml));
      InMemoryCluster cluster = new InMemoryCluster(start.snapshot());
      Extender extender =
          new Extender(
              cluster,
              new SchedulerWiring().cycle(start.config()),
              settings,
              new ExtenderMetrics(),
              clock);
      return new Served(cluster, extender);
    } catch (ScenarioException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** {@code nodes} nodes of {@code gpus} GPUs each, one queue, and {@code jobs} appended. */
  static String cluster(int nodes, int gpus, String jobs) {
    return """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: test}
        nodes:
          - {name: node, count: %d, gpus: %d, gpuMemory: 81920, cpu: "64", memory: 512Gi}
        queues:
          - name: team-a
            resources:
              gpu: {quota: -1, overQuotaWeight: 1, limit: -1}
              cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
              memory: {quota: -1, overQuotaWeight: 1, limit: -1}
        jobs:
        %s
        """
        .formatted(nodes, gpus, jobs.indent(2).stripTrailing());
  }
}
