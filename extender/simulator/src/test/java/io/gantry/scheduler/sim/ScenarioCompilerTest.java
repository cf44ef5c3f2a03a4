package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the compiler rejects after a file loads: KAI's object rules (called in the engine) and
 * starting states no cluster can be in. Each error names file, line and field.
 */
class ScenarioCompilerTest {
  private static final String HEADER =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: c}
      nodes:
        - {name: dgx, gpus: 8, gpuMemory: 81920, cpu: "64", memory: 512Gi, maxPods: 4}
      queues:
        - {name: q, resources: {gpu: {quota: -1, overQuotaWeight: 1, limit: -1}}}
      jobs:
      """;

  record Case(String name, String jobs, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case(
            "a MIG resource that names no profile",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, resources: {nvidia.com/mig-big: 1}}
            """,
            "c.yaml:12: jobs[0].tasks[0].resources.nvidia.com/mig-big: MIG resource"
                + " nvidia.com/mig-big does not name a profile of the form <g>g.<memory>gb, such as"
                + " nvidia.com/mig-1g.10gb"),
        new Case(
            "mps without a fraction",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, annotations: {mps: "true"}, resources: {cpu: "1"}}
            """,
            "c.yaml:12: jobs[0].tasks[0].annotations: mps is allowed only with a gpu-fraction or"
                + " gpu-memory request"),
        new Case(
            "running tasks hold more GPUs than the node has",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, replicas: 3, status: Running, node: dgx, resources: {nvidia.com/gpu: 4}}
            """,
            "c.yaml:12: jobs[0].tasks[0].node: node dgx is over-committed: its placed tasks hold"
                + " 12 GPUs (12 whole, 0 shared), it has 8"),
        new Case(
            "more placed pods than the node's maxPods",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, replicas: 5, status: Running, node: dgx, resources: {cpu: "1"}}
            """,
            "c.yaml:12: jobs[0].tasks[0].node: node dgx is over-committed: its placed tasks hold"
                + " 5 pods, it has room for 4"),
        new Case(
            "one shared device holding more than a whole GPU",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, replicas: 3, gpuFraction: 0.5, status: Running, node: dgx, gpuGroups: [g0]}
            """,
            "c.yaml:12: jobs[0].tasks[0].node: node dgx is over-committed: its placed tasks hold"
                + " 1.5 of shared GPU group g0, a device holds at most 1"),
        new Case(
            "a placed memory request larger than the node's devices (KAI never places it)",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, gpuMemory: 100000, status: Running, node: dgx, gpuGroups: [g0]}
            """,
            "c.yaml:12: jobs[0].tasks[0].node: node dgx is over-committed: its placed tasks hold"
                + " 1.23 of shared GPU group g0, a device holds at most 1"),
        new Case(
            "a whole GPU written as a fraction (KAI's admission rule)",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, gpuFraction: 1}
            """,
            "c.yaml:12: jobs[0].tasks[0].gpuFraction: gpu-fraction annotation value must be a"
                + " positive number smaller than 1.0"),
        new Case(
            "GPU devices on a node that does not name its GPUs",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, status: Running, node: dgx, gpuDevices: [0], resources: {nvidia.com/gpu: 1}}
            """,
            "c.yaml:12: jobs[0].tasks[0].gpuDevices: node dgx does not name its GPUs: give it a"
                + " gpuTopology"),
        new Case(
            "fewer GPU devices than GPUs",
            """
              - name: a
                queue: q
                tasks:
                  - {name: w, status: Running, node: dgx, gpuDevices: [0], resources: {nvidia.com/gpu: 2}}
            """,
            "c.yaml:12: jobs[0].tasks[0].gpuDevices: a placed (Running, Bound, Pipelined,"
                + " Releasing) whole-GPU task lists one device per GPU (2), got 1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rejectsNamingFileLineAndField(Case c) {
    assertThatThrownBy(
            () ->
                new Simulator()
                    .run(ScenarioLoader.parse("c.yaml", HEADER + c.jobs()), OptionalInt.empty()))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(c.message());
  }

  @Test
  void aNodeWithoutGpuMemoryIsNotSyncedSoMemoryRequestsWaitThere() throws ScenarioException {
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: c}
        nodes:
          - {name: unlabelled, gpus: 2}
        queues:
          - {name: q, resources: {gpu: {quota: -1, overQuotaWeight: 1, limit: -1}}}
        jobs:
          - {name: by-memory, queue: q, tasks: [{name: w, gpuMemory: 1000}]}
          - {name: by-fraction, queue: q, tasks: [{name: w, gpuFraction: 0.5}]}
        """;
    SimulationResult r =
        new Simulator().run(ScenarioLoader.parse("c.yaml", yaml), OptionalInt.empty());
    assertThat(r.tasks())
        .extracting(SimulationResult.TaskResult::status)
        .containsExactly("Pending", "Binding");
    assertThat(r.tasks().get(0).message())
        .hasValueSatisfying(m -> assertThat(m).contains("didn't have a synced GPU memory label"));
  }

  @Test
  void placedFractionsThatNameNoGroupShareADeviceWhileItHasRoom() throws ScenarioException {
    // KAI's test tables place fractions without naming a device; two halves on one node hold one
    // GPU between them, so 1 + 2 whole GPUs and two halves fit a 4-GPU node
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: c}
        config: {actions: [allocate]}
        nodes:
          - {name: n, gpus: 4}
        queues:
          - {name: q, resources: {gpu: {quota: -1, overQuotaWeight: 1, limit: -1}}}
        jobs:
          - {name: one, queue: q, tasks: [{name: w, status: Running, node: n, resources: {nvidia.com/gpu: 1}}]}
          - {name: half-a, queue: q, tasks: [{name: w, gpuFraction: 0.5, status: Running, node: n}]}
          - {name: two, queue: q, tasks: [{name: w, status: Running, node: n, resources: {nvidia.com/gpu: 2}}]}
          - {name: half-b, queue: q, tasks: [{name: w, gpuFraction: 0.5, status: Running, node: n}]}
          - {name: third, queue: q, tasks: [{name: w, gpuFraction: 0.25, status: Running, node: n, gpuGroups: [g9]}]}
        """;
    assertThatThrownBy(
            () -> new Simulator().run(ScenarioLoader.parse("c.yaml", yaml), OptionalInt.empty()))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "c.yaml:14: jobs[4].tasks[0].node: node n is over-committed: its placed tasks hold 5"
                + " GPUs (3 whole, 2 shared), it has 4");

    SimulationResult r =
        new Simulator()
            .run(
                ScenarioLoader.parse("c.yaml", yaml.substring(0, yaml.indexOf("  - {name: third"))),
                OptionalInt.empty());
    assertThat(r.tasks())
        .extracting(SimulationResult.TaskResult::gpuGroups)
        .containsExactly(List.of(), List.of("shared-0"), List.of(), List.of("shared-0"));
  }

  @Test
  void aMixedNodeMayListNoMigInstanceYet() throws ScenarioException {
    // dynamic MIG: the node's GPU is cut into instances on demand, so KAI loads it with none
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: c}
        nodes:
          - {name: a100, gpus: 1, migStrategy: mixed, cpu: "8", memory: 8Gi}
        queues:
          - {name: q, resources: {gpu: {quota: -1, overQuotaWeight: 1, limit: -1},
             cpu: {quota: -1, overQuotaWeight: 1, limit: -1},
             memory: {quota: -1, overQuotaWeight: 1, limit: -1}}}
        jobs:
          - {name: whole, queue: q, tasks: [{name: w, resources: {nvidia.com/gpu: 1}}]}
        """;

    SimulationResult r =
        new Simulator().run(ScenarioLoader.parse("c.yaml", yaml), OptionalInt.empty());

    assertThat(r.tasks())
        .extracting(SimulationResult.TaskResult::status)
        .containsExactly("Pending");
    assertThat(r.tasks().get(0).message())
        .hasValueSatisfying(m -> assertThat(m).contains("didn't have enough resources: GPUs"));
  }

  @Test
  void aMigAnnotationMakesALegacyMigPodThatIsNeverPlaced() throws ScenarioException {
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: c}
        nodes:
          - {name: a100, gpus: 1, migStrategy: mixed, extended: {nvidia.com/mig-1g.10gb: 2}}
        queues:
          - {name: q, resources: {gpu: {quota: -1, overQuotaWeight: 1, limit: -1}}}
        jobs:
          - {name: legacy, queue: q,
             tasks: [{name: w, annotations: {nvidia.com/mig-1g.10gb: "1"}}]}
        """;

    SimulationResult r =
        new Simulator().run(ScenarioLoader.parse("c.yaml", yaml), OptionalInt.empty());

    assertThat(r.tasks().get(0).status()).isEqualTo("Pending");
    assertThat(r.tasks().get(0).message())
        .hasValueSatisfying(
            m -> assertThat(m).contains("Legacy MIG jobs cannot be scheduled on node a100"));
  }

  @Test
  void aLegacyMigAnnotationNeedsAWholeNumber() {
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: c}
        nodes:
          - {name: a100, gpus: 1, migStrategy: mixed, extended: {nvidia.com/mig-1g.10gb: 2}}
        queues:
          - {name: q, resources: {gpu: {quota: -1, overQuotaWeight: 1, limit: -1}}}
        jobs:
          - {name: legacy, queue: q,
             tasks: [{name: w, annotations: {nvidia.com/mig-1g.10gb: "one"}}]}
        """;

    assertThatThrownBy(
            () -> new Simulator().run(ScenarioLoader.parse("c.yaml", yaml), OptionalInt.empty()))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "c.yaml:10: jobs[0].tasks[0].annotations.nvidia.com/mig-1g.10gb: a legacy MIG"
                + " annotation's value is the number of instances, a whole number, got one");
  }
}
