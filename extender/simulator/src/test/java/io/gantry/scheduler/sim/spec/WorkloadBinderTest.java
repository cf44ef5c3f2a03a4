package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.ScenarioException;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Workload manifests of each kind the simulator expands: the pods their controllers create, and the
 * PodGroups KAI's podgrouper puts them in. Each manifest sets {@code metadata.uid} so the PodGroup
 * names are short.
 */
class WorkloadBinderTest {
  record Case(String name, String manifest, String jobs) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String POD_SPEC =
      """
          spec:
            containers:
              - name: main
                image: ubuntu
                resources:
                  requests: {cpu: "2", memory: 8Gi}
                  limits: {nvidia.com/gpu: 1}
      """;

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a Deployment of 3 replicas: a PodGroup per pod, inference",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, uid: "1", labels: {kai.scheduler/queue: team}}
            spec:
              replicas: 3
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
            """
                + POD_SPEC,
            """
            default/pg-web-0-b99597a7-1670-3646-86e4-0c43acf95d55 minMember=1 queue=team class=inference
              pod web-0 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            default/pg-web-1-5b2cfc56-1ef8-34b7-8710-b7f92f8613ac minMember=1 queue=team class=inference
              pod web-1 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            default/pg-web-2-4081a63f-c53e-3943-8603-af79e37ebfa4 minMember=1 queue=team class=inference
              pod web-2 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            """),
        new Case(
            "a JobSet: a parent SubGroup per replicatedJob, a leaf per Job",
            """
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata: {name: train, namespace: ml, uid: "7", labels: {kai.scheduler/queue: team}}
            spec:
              replicatedJobs:
                - name: driver
                  template:
                    spec:
                      template:
            """
                + indent(POD_SPEC, 8)
                + """
                - name: workers
                  replicas: 2
                  template:
                    spec:
                      parallelism: 2
                      template:
            """
                + indent(POD_SPEC, 8),
            """
            ml/pg-train-7 minSubGroup=2 queue=team class=train
              subGroup driver minSubGroup=1
              subGroup driver-replica-0 parent=driver minMember=1
              subGroup workers minSubGroup=2
              subGroup workers-replica-0 parent=workers minMember=2
              subGroup workers-replica-1 parent=workers minMember=2
              pod train-driver-0-0 [driver-replica-0] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod train-workers-0-0 [workers-replica-0] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod train-workers-0-1 [workers-replica-0] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod train-workers-1-0 [workers-replica-1] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod train-workers-1-1 [workers-replica-1] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            """),
        new Case(
            "an MPIJob with a launcher: one flat gang",
            """
            apiVersion: kubeflow.org/v2beta1
            kind: MPIJob
            metadata: {name: mpi, uid: "3"}
            spec:
              slotsPerWorker: 1
              mpiReplicaSpecs:
                Launcher:
                  replicas: 1
                  template:
                    spec:
                      containers: [{name: l, image: mpi, resources: {requests: {cpu: 500m}}}]
                Worker:
                  replicas: 2
                  template:
            """
                + indent(POD_SPEC, 6),
            """
            default/pg-mpi-3 minMember=3 queue=default-queue class=train
              pod mpi-launcher-0 {cpu=500}
              pod mpi-worker-0 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod mpi-worker-1 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            """),
        new Case(
            "a RayCluster with two worker groups",
            """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata: {name: ray, uid: "4"}
            spec:
              headGroupSpec:
                rayStartParams: {}
                template:
                  spec:
                    containers: [{name: head, image: ray, resources: {limits: {cpu: "1"}}}]
              workerGroupSpecs:
                - groupName: small
                  replicas: 1
                  template:
            """
                + indent(POD_SPEC, 6)
                + """
                - groupName: big
                  replicas: 2
                  minReplicas: 1
                  template:
            """
                + indent(POD_SPEC, 6),
            """
            default/pg-ray-4 minMember=3 queue=default-queue class=train
              subGroup headgroup minMember=1
              subGroup small minMember=1
              subGroup big minMember=1
              pod ray-head [headgroup] {cpu=1000}
              pod ray-small-worker-0 [small] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod ray-big-worker-0 [big] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod ray-big-worker-1 [big] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            """),
        new Case(
            "a LeaderWorkerSet with segments of 2: a PodGroup per group",
            """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: vllm, uid: "5"}
            spec:
              replicas: 2
              leaderWorkerTemplate:
                size: 4
                subGroupPolicy: {subGroupSize: 2}
                workerTemplate:
            """
                + indent(POD_SPEC, 4),
            """
            default/pg-vllm-5-group-0 minMember=4 queue=default-queue class=train
              subGroup segment-0 minSubGroup=2
              subGroup segment-1 minMember=2
              subGroup leader parent=segment-0 minMember=1
              subGroup workers parent=segment-0 minMember=1
              pod vllm-0 [leader] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod vllm-0-1 [workers] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod vllm-0-2 [segment-1] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod vllm-0-3 [segment-1] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            default/pg-vllm-5-group-1 minMember=4 queue=default-queue class=train
              subGroup segment-0 minSubGroup=2
              subGroup segment-1 minMember=2
              subGroup leader parent=segment-0 minMember=1
              subGroup workers parent=segment-0 minMember=1
              pod vllm-1 [leader] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod vllm-1-1 [workers] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod vllm-1-2 [segment-1] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod vllm-1-3 [segment-1] {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            """),
        new Case(
            "a StatefulSet started in parallel; a Notebook",
            """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, uid: "6", labels: {priorityClassName: build}}
            spec:
              replicas: 2
              serviceName: db
              podManagementPolicy: Parallel
              selector: {matchLabels: {app: db}}
              template:
            """
                + indent(POD_SPEC, 2),
            """
            default/pg-db-6 minMember=1 queue=default-queue class=build
              pod db-0 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
              pod db-1 {cpu=2000, memory=8589934592, nvidia.com/gpu=1}
            """),
        new Case(
            "a kind the simulator does not know: spec.replicas of spec.template, the default grouper",
            """
            apiVersion: example.com/v1
            kind: Widget
            metadata: {name: w, uid: "8", labels: {kai.scheduler/preemptibility: non-preemptible}}
            spec:
              replicas: 2
              template:
                metadata:
                  annotations: {gpu-fraction: "0.25"}
                spec:
                  schedulingGates: [{name: later}]
                  containers: [{name: c, image: busybox}]
            """,
            """
            default/pg-w-8 minMember=1 queue=default-queue class=train preemptibility=non-preemptible
              pod w-0 {} gpu-fraction=0.25 Gated
              pod w-1 {} gpu-fraction=0.25 Gated
            """));
  }

  static String indent(String text, int spaces) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        out.append(" ".repeat(spaces)).append(line);
      }
      out.append('\n');
    }
    return out.toString().stripTrailing() + "\n";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void expands(Case c) throws ScenarioException {
    ScenarioSpec spec = ScenarioLoader.parse("w.yaml", WorkloadText.scenario(c.manifest()));

    assertThat(WorkloadText.of(spec.jobs())).isEqualTo(c.jobs());
  }

  @Test
  void kaisTopologyAnnotationsBecomeThePodGroupsTopologyConstraint() throws ScenarioException {
    ScenarioSpec spec =
        ScenarioLoader.parse(
            "w.yaml",
            WorkloadText.scenario(
                """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: j
                  uid: "1"
                  annotations:
                    kai.scheduler/topology: dc
                    kai.scheduler/topology-required-placement: rack
                    kai.scheduler/topology-preferred-placement: host
                spec:
                  template:
                """
                    + indent(POD_SPEC, 4)));

    assertThat(spec.jobs().get(0).topologyConstraint())
        .contains(new TopologyConstraintSpec("dc", Optional.of("rack"), Optional.of("host")));
  }

  @Test
  void podsKeepTheirNamesAndCarryKaisLabels() throws ScenarioException {
    ScenarioSpec spec =
        ScenarioLoader.parse(
            "w.yaml",
            WorkloadText.scenario(
                """
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: js, uid: "1"}
                spec:
                  replicatedJobs:
                    - name: a
                      template:
                        spec:
                          template:
                """
                    + indent(POD_SPEC, 8)));

    TaskSpec task = spec.jobs().get(0).tasks().get(0);
    assertThat(task.podName()).contains("js-a-0-0");
    assertThat(task.field())
        .isEqualTo("workloads[0].spec.replicatedJobs[0].template.spec.template.spec");
    assertThat(task.labels())
        .containsEntry("jobset.sigs.k8s.io/replicatedjob-name", "a")
        .containsEntry("jobset.sigs.k8s.io/job-index", "0")
        .containsEntry("kai.scheduler/subgroup-name", "a-replica-0");
    assertThat(task.annotations()).containsEntry("pod-group-name", "pg-js-1");
  }
}
