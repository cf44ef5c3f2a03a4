package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A workload field that cannot be honoured, or a workload that breaks a KAI rule, is an error
 * naming the file, the line and the field. The manifest's first line is line 13 of the file.
 */
class InvalidWorkloadTest {
  record Case(String name, String manifest, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String JOB =
      """
      apiVersion: batch/v1
      kind: Job
      metadata: {name: j}
      spec:
        template:
          spec:
            containers:
              - name: c
                image: ubuntu
      """;

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a field gantry cannot honour",
            JOB + "      topologySpreadConstraints: []\n",
            "w.yaml:22: workloads[0].spec.template.spec.topologySpreadConstraints: topology spread"
                + " constraints are not supported yet"),
        new Case(
            "an unknown container field",
            JOB + "          imagez: x\n",
            "w.yaml:22: workloads[0].spec.template.spec.containers[0].imagez: "
                + ManifestKeys.CANNOT_HONOUR),
        new Case(
            "a host port",
            JOB + "          ports: [{containerPort: 80, hostPort: 80}]\n",
            "w.yaml:22: workloads[0].spec.template.spec.containers[0].ports[0].hostPort: host ports"
                + " are not supported yet"),
        new Case(
            "status",
            JOB + "status: {active: 1}\n",
            "w.yaml:22: workloads[0].status: status is written by controllers; a workload is"
                + " submitted without one"),
        new Case(
            "a queue the scenario does not have",
            JOB.replace(
                "metadata: {name: j}", "metadata: {name: j, labels: {kai.scheduler/queue: nope}}"),
            "w.yaml:15: workloads[0].metadata.labels.kai.scheduler/queue: queue \"nope\" is not a"
                + " queue of this scenario"),
        new Case(
            "a batch-min-member that is not a number, found in the manifest",
            JOB.replace(
                "metadata: {name: j}",
                "metadata:\n  name: j\n  annotations:\n    kai.scheduler/batch-min-member: two"),
            "w.yaml:18: workloads[0].metadata.annotations.kai.scheduler/batch-min-member: invalid"
                + " kai.scheduler/batch-min-member annotation: \"two\""),
        new Case(
            "a gpu-fraction KAI's admission refuses",
            JOB.replace(
                "  template:\n",
                "  template:\n    metadata: {annotations: {gpu-fraction: \"1.5\"}}\n"),
            "w.yaml:18: workloads[0].spec.template.metadata.annotations.gpu-fraction: gpu-fraction"
                + " annotation value must be a positive number smaller than 1.0"),
        new Case(
            "two replicatedJobs of a JobSet with one name, named at the file's own field",
            """
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata: {name: js}
            spec:
              replicatedJobs:
                - name: w
                  template: {spec: {template: {spec: {containers: [{name: c, image: ubuntu}]}}}}
                - name: w
                  template: {spec: {template: {spec: {containers: [{name: c, image: ubuntu}]}}}}
            """,
            "w.yaml:20: workloads[0].spec.replicatedJobs[1].name: the SubGroup \"w\" of this"
                + " replicatedJob is already the SubGroup of spec.replicatedJobs[0];"
                + " replicatedJob names must be unique and must not end in -replica-<index>"),
        new Case(
            "a CronJob",
            """
            apiVersion: batch/v1
            kind: CronJob
            metadata: {name: c}
            """,
            "w.yaml:14: workloads[0].kind: batch/v1 CronJob: the simulator runs no schedules;"
                + " submit its jobTemplate as a Job"),
        new Case(
            "a JobSet started in order",
            """
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata: {name: js}
            spec:
              startupPolicy: {startupPolicyOrder: InOrder}
              replicatedJobs: []
            """,
            "w.yaml:17: workloads[0].spec.startupPolicy.startupPolicyOrder: the JobSet controller"
                + " starts each replicatedJob once the one before is ready, which the simulator"
                + " does not model; use AnyOrder"),
        new Case(
            "a segment size larger than the workers",
            """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata: {name: pt}
            spec:
              pytorchReplicaSpecs:
                Worker:
                  replicas: 2
                  template:
                    metadata:
                      annotations: {kai.scheduler/segment-size: "4"}
                    spec:
                      containers: [{name: c, image: x}]
            """,
            "w.yaml:22: workloads[0].spec.pytorchReplicaSpecs.Worker.template.metadata.annotations"
                + ".kai.scheduler/segment-size: segment size 4 is greater than the replicas, 2"),
        new Case(
            "more pods than --max-pods",
            """
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata: {name: rs}
            spec:
              replicas: 2000000
              template:
                spec:
                  containers: [{name: c, image: x}]
            """,
            "w.yaml:17: workloads[0].spec.replicas: the scenario would have 2000000 pods, more than"
                + " the limit of 1000000 (raise it with --max-pods)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isReported(Case c) {
    assertThatThrownBy(() -> ScenarioLoader.parse("w.yaml", WorkloadText.scenario(c.manifest())))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(c.expected());
  }
}
