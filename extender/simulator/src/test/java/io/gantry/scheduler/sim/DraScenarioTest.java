package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The DRA sections of a scenario: what they load to, and bad input named by file, line, field. */
class DraScenarioTest {
  private static final String SCENARIO =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: dra}
      deviceClasses:
        - name: gpu.gantry.io
          spec:
            selectors:
              - cel: {expression: "device.driver == 'gpu.gantry.io'"}
      resourceSlices:
        - name: n0-gpus
          spec:
            driver: gpu.gantry.io
            pool: {name: n0, generation: 3, resourceSliceCount: 1}
            nodeName: n0
            devices:
              - name: gpu-0
                attributes:
                  index: {int: 0}
                  driverVersion: {version: 550.54.15}
                capacity:
                  memory: {value: 80Gi}
      resourceClaimTemplates:
        - name: two
          spec:
            spec:
              devices:
                requests:
                  - name: gpu
                    firstAvailable:
                      - {name: pair, deviceClassName: gpu.gantry.io, count: 2}
                      - {name: all, deviceClassName: gpu.gantry.io, allocationMode: All}
                constraints:
                  - {requests: [gpu], matchAttribute: gpu.gantry.io/nvlinkDomain}
      nodes:
        - {name: n0, cpu: "8", memory: 64Gi}
      queues:
        - name: q
          resources:
            gpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            memory: {quota: -1, overQuotaWeight: 1, limit: -1}
      jobs:
        - name: j
          queue: q
          tasks:
            - name: t
              replicas: 2
              resources: {cpu: "1"}
              resourceClaims:
                - {name: gpus, resourceClaimTemplateName: two}
      resourceClaims:
        - name: shared
          labels: {kai.scheduler/queue: q}
          spec:
            devices:
              requests:
                - name: gpu
                  exactly: {deviceClassName: gpu.gantry.io}
      """;

  @Test
  void loadsTheSpecsOfTheObjects() throws ScenarioException {
    ScenarioSpec spec = ScenarioLoader.parse("dra.yaml", SCENARIO);

    assertThat(spec.dra().slices().get(0).pool().generation()).isEqualTo(3);
    assertThat(spec.dra().slices().get(0).devices().get(0).attributes())
        .containsEntry("index", DeviceAttribute.ofInt(0))
        .containsEntry("driverVersion", DeviceAttribute.ofVersion("550.54.15"));
    assertThat(spec.dra().claims().get(0).labels()).containsEntry("kai.scheduler/queue", "q");
    assertThat(spec.dra().templates().get(0).requests().get(0).choices())
        .extracting(c -> c.name() + ":" + c.allocationMode() + ":" + c.count())
        .containsExactly(
            "pair:" + AllocationMode.EXACT_COUNT + ":2", "all:" + AllocationMode.ALL + ":0");
  }

  @Test
  void eachPodOfATemplateGetsItsOwnClaim() throws ScenarioException {
    SimWorld world = ScenarioCompiler.compile(ScenarioLoader.parse("dra.yaml", SCENARIO));

    List<List<PodClaim>> claims =
        world.jobs().get(0).tasks.stream()
            .map(t -> List.<PodClaim>copyOf(t.template.resourceClaims()))
            .toList();
    assertThat(claims)
        .containsExactly(
            List.of(new PodClaim("gpus", "j-t-0-gpus", true)),
            List.of(new PodClaim("gpus", "j-t-1-gpus", true)));
    assertThat(world.dynamicResources().claims())
        .containsOnlyKeys("default/j-t-0-gpus", "default/j-t-1-gpus", "default/shared");
  }

  static Stream<ScenarioEdit> badInput() {
    return Stream.of(
        new ScenarioEdit(
            "slice with nodeName and allNodes",
            "      nodeName: n0\n",
            "      nodeName: n0\n      allNodes: true\n",
            "dra.yaml:11: resourceSlices[0].spec: exactly one of nodeName, nodeSelector, allNodes"
                + " and perDeviceNodeSelection must be set"),
        new ScenarioEdit(
            "attribute with two values",
            "index: {int: 0}",
            "index: {int: 0, string: x}",
            "dra.yaml:18: resourceSlices[0].spec.devices[0].attributes.index: exactly one of int,"
                + " bool, string and version must be set"),
        new ScenarioEdit(
            "version that is not semver",
            "version: 550.54.15",
            "version: \"550\"",
            "dra.yaml:19: resourceSlices[0].spec.devices[0].attributes.driverVersion.version:"
                + " expected a semantic version such as 1.2.3, got \"550\""),
        new ScenarioEdit(
            "capacity that is not a quantity",
            "value: 80Gi",
            "value: lots",
            "dra.yaml:21: resourceSlices[0].spec.devices[0].capacity.memory.value: expected a"
                + " quantity such as 500m, 8 or 64Gi, got \"lots\""),
        new ScenarioEdit(
            "constraint on an unknown request",
            "{requests: [gpu],",
            "{requests: [gpus],",
            "dra.yaml:33: resourceClaimTemplates[0].spec.spec.devices.constraints[0].requests:"
                + " unknown request \"gpus\""),
        new ScenarioEdit(
            "count with allocationMode All",
            "allocationMode: All}",
            "allocationMode: All, count: 2}",
            "dra.yaml:31:"
                + " resourceClaimTemplates[0].spec.spec.devices.requests[0].firstAvailable[1].count:"
                + " must not be set when allocationMode is All"),
        new ScenarioEdit(
            "unknown template",
            "resourceClaimTemplateName: two}",
            "resourceClaimTemplateName: three}",
            "dra.yaml:50: jobs[0].tasks[0].resourceClaims[0].resourceClaimTemplateName: unknown"
                + " ResourceClaimTemplate default/three"),
        new ScenarioEdit(
            "pod claim naming both a claim and a template",
            "{name: gpus, resourceClaimTemplateName: two}",
            "{name: gpus, resourceClaimTemplateName: two, resourceClaimName: x}",
            "dra.yaml:50: jobs[0].tasks[0].resourceClaims[0]: exactly one of resourceClaimName and"
                + " resourceClaimTemplateName must be set"),
        new ScenarioEdit(
            "two pod claims of one name",
            "{name: gpus, resourceClaimTemplateName: two}\n",
            """
            {name: gpus, resourceClaimTemplateName: two}
                      - {name: gpus, resourceClaimName: shared}
            """,
            "dra.yaml:51: jobs[0].tasks[0].resourceClaims[1].name: duplicate pod claim name"
                + " \"gpus\" (already defined on line 50)"),
        new ScenarioEdit(
            "claim labels not a mapping",
            "labels: {kai.scheduler/queue: q}",
            "labels: [q]",
            "dra.yaml:53: resourceClaims[0].labels: expected a mapping, got a list"),
        new ScenarioEdit(
            "running task with claims",
            "replicas: 2\n",
            "replicas: 2\n        status: Running\n        node: n0\n",
            "dra.yaml:52: jobs[0].tasks[0].resourceClaims[0]: a task with resourceClaims must"
                + " start Pending: scenarios do not give claims a status"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInput")
  void badInputNamesTheField(ScenarioEdit c) {
    String yaml = c.applyTo(SCENARIO);

    assertThatThrownBy(() -> ScenarioCompiler.compile(ScenarioLoader.parse("dra.yaml", yaml)))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(c.message());
  }
}
