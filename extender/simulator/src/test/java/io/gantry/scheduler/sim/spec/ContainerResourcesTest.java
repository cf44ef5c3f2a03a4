package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.ScenarioException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A pod's requests from its containers, added up as Kubernetes does. */
class ContainerResourcesTest {
  record Case(String name, String spec, String requests) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "containers are summed",
            """
            containers:
              - {name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}
              - {name: b, resources: {requests: {cpu: "1", memory: 1Gi}}}
            """,
            "{cpu=1500, memory=2147483648}"),
        new Case(
            "a limit stands in for a request the container does not set",
            """
            containers:
              - {name: a, resources: {requests: {cpu: 500m}, limits: {cpu: "2", memory: 4Gi, nvidia.com/gpu: 2}}}
            """,
            "{cpu=500, memory=4294967296, nvidia.com/gpu=2}"),
        new Case(
            "an init container needing more than the app containers sets the pod's request",
            """
            initContainers:
              - {name: init, resources: {requests: {cpu: "4", memory: 1Gi}}}
            containers:
              - {name: a, resources: {requests: {cpu: "1", memory: 2Gi}}}
              - {name: b, resources: {requests: {cpu: "1", memory: 2Gi}}}
            """,
            "{cpu=4000, memory=4294967296}"),
        new Case(
            "sidecars run beside the app containers and the init containers after them",
            """
            initContainers:
              - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: "1"}}}
              - {name: init, resources: {requests: {cpu: "2"}}}
            containers:
              - {name: a, resources: {requests: {cpu: "1"}}}
            """,
            "{cpu=3000}"),
        new Case(
            "extended resources are whole numbers",
            """
            containers:
              - {name: a, resources: {limits: {example.com/fpga: "2"}}}
            """,
            "{example.com/fpga=2}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void addsUp(Case c) throws ScenarioException {
    String manifest =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
        """
            + WorkloadBinderTest.indent(c.spec(), 2);

    ScenarioSpec spec = ScenarioLoader.parse("p.yaml", WorkloadText.scenario(manifest));

    assertThat(spec.jobs().get(0).tasks().get(0).resources()).hasToString(c.requests());
  }
}
