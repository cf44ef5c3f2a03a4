package io.gantry.scheduler.kube.grouping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.grouping.OwnerMeta;
import io.gantry.kubemodel.kai.grouping.PodTemplateMeta;
import io.gantry.kubemodel.kai.grouping.RayWorkerGroup;
import io.gantry.kubemodel.kai.grouping.ReplicaSpec;
import io.gantry.kubemodel.kai.grouping.ReplicatedJob;
import io.gantry.kubemodel.kai.grouping.WorkloadKind;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WorkloadSpecReader}: the facts each kind's grouper reads, from owners as the API server
 * stores them (status and unknown fields ignored).
 */
class WorkloadSpecReaderTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final PodTemplateMeta EMPTY = PodTemplateMeta.EMPTY;

  record Case(String name, WorkloadKind kind, String yaml, boolean launcher, WorkloadSpec spec) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case(
            "a PyTorchJob from KAI's example, defaults applied by the operator",
            WorkloadKind.PYTORCH_JOB,
            """
            spec:
              runPolicy: {schedulingPolicy: {minAvailable: 2}}
              pytorchReplicaSpecs:
                Master: {replicas: 1, template: {metadata: {labels: {a: b}}}}
                Worker: {replicas: 2, template: {spec: {}}}
            status: {conditions: []}
            """,
            false,
            new WorkloadSpec.KubeflowSpec(
                ImmutableMap.of(
                    "Master",
                    new ReplicaSpec(
                        OptionalInt.of(1), PodTemplateMeta.of(Map.of("a", "b"), Map.of())),
                    "Worker",
                    new ReplicaSpec(OptionalInt.of(2), EMPTY)),
                OptionalInt.of(2),
                OptionalInt.empty(),
                Optional.empty(),
                false)),
        new Case(
            "an MPIJob v2beta1 with a delayed launcher that exists",
            WorkloadKind.MPI_JOB,
            """
            spec:
              launcherCreationPolicy: WaitForWorkersReady
              mpiReplicaSpecs:
                Launcher: {replicas: 1}
                Worker: {replicas: 4}
            """,
            true,
            new WorkloadSpec.KubeflowSpec(
                ImmutableMap.of(
                    "Launcher", new ReplicaSpec(OptionalInt.of(1), EMPTY),
                    "Worker", new ReplicaSpec(OptionalInt.of(4), EMPTY)),
                OptionalInt.empty(),
                OptionalInt.empty(),
                Optional.of("WaitForWorkersReady"),
                true)),
        new Case(
            "a RayCluster with two worker groups",
            WorkloadKind.RAY_CLUSTER,
            """
            spec:
              headGroupSpec: {template: {metadata: {labels: {h: "1"}}}}
              workerGroupSpecs:
                - {groupName: small, replicas: 2, minReplicas: 1}
                - {groupName: big, replicas: 1, numOfHosts: 2, suspend: true}
            """,
            false,
            new WorkloadSpec.RaySpec(
                Optional.of(PodTemplateMeta.of(Map.of("h", "1"), Map.of())),
                ImmutableList.of(
                    new RayWorkerGroup(
                        Optional.of("small"),
                        OptionalInt.of(2),
                        OptionalInt.of(1),
                        OptionalInt.empty(),
                        false,
                        EMPTY),
                    new RayWorkerGroup(
                        Optional.of("big"),
                        OptionalInt.of(1),
                        OptionalInt.empty(),
                        OptionalInt.of(2),
                        true,
                        EMPTY)),
                false)),
        new Case(
            "a RayJob's cluster is its rayClusterSpec",
            WorkloadKind.RAY_JOB,
            """
            spec:
              entrypoint: python x.py
              rayClusterSpec: {enableInTreeAutoscaling: true, workerGroupSpecs: []}
            """,
            false,
            new WorkloadSpec.RaySpec(Optional.empty(), ImmutableList.of(), true)),
        new Case(
            "a JobSet in order",
            WorkloadKind.JOB_SET,
            """
            spec:
              startupPolicy: {startupPolicyOrder: InOrder}
              replicatedJobs:
                - name: driver
                  template:
                    metadata: {annotations: {kai.scheduler/batch-min-member: "1"}}
                    spec: {parallelism: 1}
                - {name: workers, replicas: 2, template: {spec: {parallelism: 4}}}
            """,
            false,
            new WorkloadSpec.JobSetSpec(
                ImmutableList.of(
                    new ReplicatedJob(
                        "driver",
                        OptionalInt.empty(),
                        OptionalInt.of(1),
                        PodTemplateMeta.of(
                            Map.of(), Map.of("kai.scheduler/batch-min-member", "1"))),
                    new ReplicatedJob("workers", OptionalInt.of(2), OptionalInt.of(4), EMPTY)),
                Optional.of("InOrder"))),
        new Case(
            "a LeaderWorkerSet with segments",
            WorkloadKind.LEADER_WORKER_SET,
            """
            spec:
              startupPolicy: LeaderCreated
              leaderWorkerTemplate:
                size: 5
                subGroupPolicy: {subGroupSize: 2}
                workerTemplate: {metadata: {annotations: {kai.scheduler/segment-size: "2"}}}
            """,
            false,
            new WorkloadSpec.LeaderWorkerSetSpec(
                OptionalInt.of(5),
                Optional.of("LeaderCreated"),
                OptionalInt.of(2),
                Optional.empty(),
                Optional.of(
                    PodTemplateMeta.of(Map.of(), Map.of("kai.scheduler/segment-size", "2"))))),
        new Case(
            "a Deployment is grouped from its metadata alone",
            WorkloadKind.DEPLOYMENT,
            "spec: {replicas: 3}",
            false,
            WorkloadSpec.PLAIN));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void readsWhatTheKindsGrouperNeeds(Case c) {
    assertThat(WorkloadSpecReader.read(c.kind(), yaml(c.yaml()), c.launcher())).isEqualTo(c.spec());
  }

  @Test
  void anOwnersIdentityLabelsAndAnnotations() {
    JsonNode object =
        yaml(
            """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: mnist
              uid: u-1
              labels: {kai.scheduler/queue: team}
              annotations: {kai.scheduler/topology: rack}
            """);

    assertThat(WorkloadSpecReader.owner(object))
        .isEqualTo(
            OwnerMeta.of(
                "kubeflow.org/v1",
                "PyTorchJob",
                "mnist",
                "u-1",
                Map.of("kai.scheduler/queue", "team"),
                Map.of("kai.scheduler/topology", "rack")));
  }

  @Test
  void knativeServicesAreNotSupportedAndSaySo() {
    assertThat(WorkloadSpecReader.unsupported(WorkloadKind.KNATIVE_SERVICE))
        .contains(
            "grouping the pods of a Knative Service by its revision is not supported by this"
                + " build");
    assertThat(WorkloadSpecReader.unsupported(WorkloadKind.JOB_SET)).isEmpty();
    assertThatThrownBy(
            () -> WorkloadSpecReader.read(WorkloadKind.CRON_JOB, yaml("spec: {}"), false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
