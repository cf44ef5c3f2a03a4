package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SimulatorTest {
  private static final String HEAD =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: multi}
      nodes:
        - {name: node-0, gpus: 2, gpuMemory: 81920, cpu: "16", memory: 64Gi}
      queues:
        - name: q
          resources:
            gpu: {quota: 2, overQuotaWeight: 1, limit: -1}
            cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            memory: {quota: -1, overQuotaWeight: 1, limit: -1}
      """;

  private static SimulationResult run(String yaml, int cycles) throws ScenarioException {
    return new Simulator().run(ScenarioLoader.parse("multi.yaml", yaml), OptionalInt.of(cycles));
  }

  private static String status(SimulationResult r, String job) {
    return r.jobs().stream()
        .filter(j -> j.jobName().equals(job))
        .findFirst()
        .orElseThrow()
        .status();
  }

  @Test
  void boundTasksRunNextCycleAndFinishAfterTheirDuration() throws ScenarioException {
    String yaml =
        HEAD
            + """
            config: {cyclePeriod: 10s}
            jobs:
              - name: short
                queue: q
                duration: 15s
                tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
              - name: later
                queue: q
                arrival: 5s
                tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
            """;

    SimulationResult one = run(yaml, 1);
    SimulationResult two = run(yaml, 2);
    SimulationResult three = run(yaml, 3);

    assertThat(one.jobs()).extracting(SimulationResult.JobResult::jobName).containsExactly("short");
    assertThat(status(one, "short")).isEqualTo("Binding");
    assertThat(status(two, "short")).isEqualTo("Running");
    assertThat(status(two, "later")).isEqualTo("Pending");
    assertThat(status(three, "short")).isEqualTo("Succeeded");
    assertThat(status(three, "later")).isEqualTo("Binding");
    assertThat(three.events())
        .filteredOn(e -> e.reason().equals("Scheduled"))
        .extracting(SimulationResult.EventResult::cycle, SimulationResult.EventResult::object)
        .containsExactly(tuple(1, "default/short-run"), tuple(3, "default/later-run"));
  }

  @Test
  void aPodMovedByConsolidationReleasesItsOldPlaceOnlyUntilTheNextCycle() throws ScenarioException {
    // issue 23: the moved pod is reported Pipelined at its new node while its old pod still
    // releases a GPU of n1; the next cycle that GPU is back (big binds on all four)
    String running = "resources: {cpu: '1', memory: 1Gi, nvidia.com/gpu: 1}, status: Running";
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: moved}
        nodes:
          - {name: n0, gpus: 4, cpu: "16", memory: 64Gi}
          - {name: n1, gpus: 4, cpu: "16", memory: 64Gi}
        queues:
          - name: q
            resources:
              gpu: {quota: 8, overQuotaWeight: 1, limit: -1}
              cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
              memory: {quota: -1, overQuotaWeight: 1, limit: -1}
        jobs:
          - {name: r-0, queue: q, createdAt: -40s, tasks: [{name: t, %1$s, node: n0}]}
          - {name: r-1, queue: q, createdAt: -30s, tasks: [{name: t, %1$s, node: n0}]}
          - {name: r-2, queue: q, createdAt: -20s, tasks: [{name: t, %1$s, node: n1}]}
          - {name: r-3, queue: q, createdAt: -10s, tasks: [{name: t, %1$s, node: n1}]}
          - name: big
            queue: q
            tasks: [{name: t, resources: {cpu: '1', memory: 1Gi, nvidia.com/gpu: 3}}]
        """
            .formatted(running);

    SimulationResult one = run(yaml, 1);
    SimulationResult two = run(yaml, 2);

    assertThat(status(one, "r-3")).isEqualTo("Pipelined");
    assertThat(status(one, "big")).isEqualTo("Pipelined");
    assertThat(one.nodes())
        .filteredOn(n -> n.node().equals("n1"))
        .extracting(
            SimulationResult.NodeResult::idleGpus, SimulationResult.NodeResult::releasingGpus)
        .containsExactly(tuple(2, 1));
    assertThat(status(two, "big")).isEqualTo("Binding");
    assertThat(two.nodes())
        .filteredOn(n -> n.node().equals("n1"))
        .extracting(
            SimulationResult.NodeResult::idleGpus, SimulationResult.NodeResult::releasingGpus)
        .containsExactly(tuple(0, 0));
  }

  @Test
  void releasingTaskLeavesAfterItsGracePeriodAndIsReplaced() throws ScenarioException {
    String yaml =
        HEAD
            + """
            jobs:
              - name: leaving
                queue: q
                terminationGracePeriod: 0s
                tasks: [{name: run, status: Releasing, node: node-0, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
              - name: waiting
                queue: q
                createdAt: -1m
                tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
            """;

    SimulationResult one = run(yaml, 1);
    SimulationResult two = run(yaml, 2);

    assertThat(status(one, "leaving")).isEqualTo("Releasing");
    assertThat(status(one, "waiting")).isEqualTo("Pipelined");
    assertThat(one.nodes().get(0).releasingGpus()).isEqualTo(2);
    assertThat(status(two, "waiting")).isEqualTo("Binding");
    assertThat(status(two, "leaving")).as("replaced by a new pending pod").isEqualTo("Pending");
  }

  @Test
  void replaceFalseDropsTheReleasedTask() throws ScenarioException {
    String yaml =
        HEAD
            + """
            jobs:
              - name: leaving
                queue: q
                replace: false
                tasks: [{name: run, status: Releasing, node: node-0, resources: {cpu: "1", memory: 1Gi}}]
              - name: other
                queue: q
                tasks: [{name: run, resources: {cpu: "1", memory: 1Gi}}]
            """;

    SimulationResult two = run(yaml, 2);

    assertThat(two.tasks())
        .extracting(SimulationResult.TaskResult::jobName)
        .doesNotContain("leaving");
  }
}
