package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.dra.ClaimConfig;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Opaque {@code config} of DeviceClasses and claims in a scenario: what it loads to, bad input. */
class DraConfigScenarioTest {
  private static final String SCENARIO =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: dra-config}
      deviceClasses:
        - name: gpu.gantry.io
          spec:
            selectors:
              - cel: {expression: "device.driver == 'gpu.gantry.io'"}
            config:
              - opaque:
                  driver: gpu.gantry.io
                  parameters: {apiVersion: gpu.gantry.io/v1, kind: GpuSharingConfig, computeMode: time-slicing, fraction: 1}
      resourceClaimTemplates:
        - name: shared
          spec:
            spec:
              devices:
                requests:
                  - name: gpu
                    firstAvailable:
                      - {name: h100, deviceClassName: gpu.gantry.io}
                      - {name: any, deviceClassName: gpu.gantry.io}
                config:
                  - requests: [gpu/h100]
                    opaque:
                      driver: gpu.gantry.io
                      parameters:
                        apiVersion: gpu.gantry.io/v1
                        kind: GpuSharingConfig
                        computeMode: mps
                        memoryMiB: 20000
                        note: "a \\"quoted\\" word"
                        tiers: [0.5, true, x]
                  - opaque:
                      driver: other.example.com
                      parameters: {}
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
              resources: {cpu: "1"}
              resourceClaims:
                - {name: gpus, resourceClaimTemplateName: shared}
      """;

  @Test
  void classAndClaimConfigLoadWithTheirParametersAsJson() throws ScenarioException {
    ScenarioSpec spec = ScenarioLoader.parse("dra.yaml", SCENARIO);

    assertThat(spec.dra().deviceClasses().get(0).config())
        .containsExactly(
            new OpaqueConfig(
                "gpu.gantry.io",
                "{\"apiVersion\":\"gpu.gantry.io/v1\",\"kind\":\"GpuSharingConfig\","
                    + "\"computeMode\":\"time-slicing\",\"fraction\":1}"));
    assertThat(spec.dra().templates().get(0).config())
        .containsExactly(
            new ClaimConfig(
                ImmutableList.of("gpu/h100"),
                new OpaqueConfig(
                    "gpu.gantry.io",
                    "{\"apiVersion\":\"gpu.gantry.io/v1\",\"kind\":\"GpuSharingConfig\","
                        + "\"computeMode\":\"mps\",\"memoryMiB\":20000,"
                        + "\"note\":\"a \\\"quoted\\\" word\",\"tiers\":[0.5,true,\"x\"]}")),
            new ClaimConfig(ImmutableList.of(), new OpaqueConfig("other.example.com", "{}")));
  }

  @Test
  void aPodsClaimFromATemplateKeepsTheTemplatesConfig() throws ScenarioException {
    SimWorld world = ScenarioCompiler.compile(ScenarioLoader.parse("dra.yaml", SCENARIO));

    assertThat(world.dynamicResources().claims().get("default/j-t-gpus").config())
        .isEqualTo(ScenarioLoader.parse("dra.yaml", SCENARIO).dra().templates().get(0).config());
  }

  static Stream<ScenarioEdit> badInput() {
    return Stream.of(
        new ScenarioEdit(
            "claim config naming an unknown request",
            "requests: [gpu/h100]",
            "requests: [gpu/a100]",
            "dra.yaml:24: resourceClaimTemplates[0].spec.spec.devices.config[0].requests[0]: must"
                + " be the name of a request in the claim or the name of a request and a"
                + " subrequest separated by '/', got \"gpu/a100\""),
        new ScenarioEdit(
            "claim config naming a request twice",
            "requests: [gpu/h100]",
            "requests: [gpu, gpu]",
            "dra.yaml:24: resourceClaimTemplates[0].spec.spec.devices.config[0].requests[1]:"
                + " duplicate request name \"gpu\" (already defined on line 24)"),
        new ScenarioEdit(
            "opaque without driver",
            "driver: other.example.com\n",
            "",
            "dra.yaml:35: resourceClaimTemplates[0].spec.spec.devices.config[1].opaque.driver: is"
                + " required"),
        new ScenarioEdit(
            "parameters that are not an object",
            "parameters: {}",
            "parameters: [1]",
            "dra.yaml:36:"
                + " resourceClaimTemplates[0].spec.spec.devices.config[1].opaque.parameters:"
                + " expected a mapping, got a list"),
        new ScenarioEdit(
            "class config without parameters",
            "            parameters: {apiVersion",
            "            params: {apiVersion",
            "dra.yaml:12: deviceClasses[0].spec.config[0].opaque.params: unknown field"),
        new ScenarioEdit(
            "class config with requests",
            "        - opaque:\n            driver: gpu.gantry.io",
            "        - requests: [gpu]\n          opaque:\n            driver: gpu.gantry.io",
            "dra.yaml:10: deviceClasses[0].spec.config[0].requests: unknown field"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInput")
  void badInputNamesTheField(ScenarioEdit c) {
    String yaml = c.applyTo(SCENARIO);

    assertThatThrownBy(() -> ScenarioLoader.parse("dra.yaml", yaml))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(c.message());
  }
}
