package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.report.RunSummary;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Fair share on a cluster whose GPUs are all published by DRA ResourceSlices (kai-reference §5.1):
 * the capacity the queues divide counts the GPU devices of the slices with CEL selectors.
 */
class DraCapacityScenarioTest {
  /**
   * n0 (ready) publishes 2 GPUs and 2 NICs, n1 (not ready) 2 GPUs, and a slice for all nodes 1 GPU:
   * the queues divide 3 GPUs. qa and qb (quota 0, weight 1) each ask for 2, get 1.5 offered, keep 1
   * each, and the last one goes to qa, the older queue.
   */
  private static final String SCENARIO =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: dra-capacity}
      deviceClasses:
        - name: gpu.gantry.io
          spec:
            selectors:
              - cel: {expression: "device.driver == 'gpu.gantry.io'"}
        - name: nic.example.com
          spec:
            selectors:
              - cel: {expression: "device.driver == 'nic.example.com'"}
      resourceSlices:
        - name: n0-gpus
          spec:
            driver: gpu.gantry.io
            pool: {name: n0, generation: 1, resourceSliceCount: 1}
            nodeName: n0
            devices: [{name: gpu-0}, {name: gpu-1}]
        - name: n0-nics
          spec:
            driver: nic.example.com
            pool: {name: n0, generation: 1, resourceSliceCount: 1}
            nodeName: n0
            devices: [{name: nic-0}, {name: nic-1}]
        - name: n1-gpus
          spec:
            driver: gpu.gantry.io
            pool: {name: n1, generation: 1, resourceSliceCount: 1}
            nodeName: n1
            devices: [{name: gpu-0}, {name: gpu-1}]
        - name: fabric-gpus
          spec:
            driver: gpu.gantry.io
            pool: {name: fabric, generation: 1, resourceSliceCount: 1}
            allNodes: true
            devices: [{name: gpu-0}]
      resourceClaimTemplates:
        - name: one-gpu
          spec:
            spec:
              devices:
                requests:
                  - name: gpu
                    exactly: {deviceClassName: gpu.gantry.io}
      nodes:
        - {name: n0, cpu: "16", memory: 64Gi}
        - {name: n1, cpu: "16", memory: 64Gi, ready: false}
      queues:
        - name: qa
          resources:
            gpu: {quota: 0, overQuotaWeight: 1, limit: -1}
        - name: qb
          resources:
            gpu: {quota: 0, overQuotaWeight: 1, limit: -1}
      jobs:
        - name: a
          queue: qa
          tasks:
            - name: t
              replicas: 2
              resources: {cpu: "1"}
              resourceClaims:
                - {name: gpu, resourceClaimTemplateName: one-gpu}
        - name: b
          queue: qb
          tasks:
            - name: t
              replicas: 2
              resources: {cpu: "1"}
              resourceClaims:
                - {name: gpu, resourceClaimTemplateName: one-gpu}
      """;

  @Test
  void queuesDivideTheGpusTheSlicesPublishForReadyNodes() throws ScenarioException {
    SimulationResult result =
        new Simulator().run(ScenarioLoader.parse("dra-capacity.yaml", SCENARIO), OptionalInt.of(1));

    Map<String, Double> fairShareGpus =
        result.queues().stream()
            .collect(
                Collectors.toMap(SimulationResult.QueueResult::queue, q -> q.fairShare().gpu()));
    assertThat(fairShareGpus).isEqualTo(Map.of("qa", 2.0, "qb", 1.0));
  }

  /**
   * dra-0 publishes 4 GPUs and a pod claims one; gpu-0 has 2 device-plugin GPUs, idle. The idle DRA
   * GPUs count in the node's idle GPUs and the cluster's total: 1 of 6 allocated, not 1 of 3.
   */
  private static final String IDLE_DRA_GPUS =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: dra-idle}
      deviceClasses:
        - name: gpu.gantry.io
          spec:
            selectors:
              - cel: {expression: "device.driver == 'gpu.gantry.io'"}
      resourceSlices:
        - name: dra-0-gpus
          spec:
            driver: gpu.gantry.io
            pool: {name: dra-0, generation: 1, resourceSliceCount: 1}
            nodeName: dra-0
            devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}, {name: gpu-3}]
      resourceClaimTemplates:
        - name: one-gpu
          spec:
            spec:
              devices:
                requests:
                  - name: gpu
                    exactly: {deviceClassName: gpu.gantry.io}
      nodes:
        - {name: dra-0, cpu: "16", memory: 64Gi}
        - {name: gpu-0, gpus: 2, cpu: "16", memory: 64Gi}
      queues:
        - name: qa
          resources:
            gpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            memory: {quota: -1, overQuotaWeight: 1, limit: -1}
      jobs:
        - name: a
          queue: qa
          tasks:
            - name: t
              resources: {cpu: "1"}
              resourceClaims:
                - {name: gpu, resourceClaimTemplateName: one-gpu}
      """;

  @Test
  void idleDraGpusCountInTheNodesIdleGpusAndTheClustersTotal() throws ScenarioException {
    SimulationResult result =
        new Simulator()
            .run(ScenarioLoader.parse("dra-idle.yaml", IDLE_DRA_GPUS), OptionalInt.of(1));

    assertThat(result.nodes())
        .as(result.tasks().toString())
        .extracting(n -> n.node() + " idle " + n.idleGpus() + " used " + n.usedGpus())
        .containsExactly("dra-0 idle 3 used 1", "gpu-0 idle 2 used 0");
    assertThat(RunSummary.of(result).line())
        .isEqualTo("Summary: 1 placed, 0 pending, 0 evicted; GPUs 1 of 6 allocated (16.7%)");
  }
}
