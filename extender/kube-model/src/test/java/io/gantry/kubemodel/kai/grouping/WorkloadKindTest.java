package io.gantry.kubemodel.kai.grouping;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** KAI's table of top-owner types, with wildcard versions, and the default for the rest. */
class WorkloadKindTest {
  record Case(String apiVersion, String kind, WorkloadKind expected) {
    @Override
    public String toString() {
      return apiVersion + " " + kind;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("v1", "Pod", WorkloadKind.POD),
        new Case("apps/v1", "Deployment", WorkloadKind.DEPLOYMENT),
        new Case("apps/v1", "StatefulSet", WorkloadKind.STATEFUL_SET),
        new Case("batch/v1", "Job", WorkloadKind.BATCH_JOB),
        new Case("batch/v1", "CronJob", WorkloadKind.CRON_JOB),
        new Case("kubeflow.org/v1", "PyTorchJob", WorkloadKind.PYTORCH_JOB),
        new Case("kubeflow.org/v1", "MPIJob", WorkloadKind.MPI_JOB),
        new Case("kubeflow.org/v2beta1", "MPIJob", WorkloadKind.MPI_JOB),
        new Case("kubeflow.org/v1beta1", "Notebook", WorkloadKind.NOTEBOOK),
        new Case("ray.io/v1alpha1", "RayService", WorkloadKind.RAY_SERVICE),
        new Case("jobset.x-k8s.io/v1alpha2", "JobSet", WorkloadKind.JOB_SET),
        new Case("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", WorkloadKind.LEADER_WORKER_SET),
        new Case("serving.knative.dev/v1", "Service", WorkloadKind.KNATIVE_SERVICE),
        new Case("argoproj.io/v1alpha1", "Workflow", WorkloadKind.SKIP_TOP_OWNER),
        new Case("trainer.kubeflow.org/v1alpha1", "TrainJob", WorkloadKind.SKIP_TOP_OWNER),
        new Case("run.ai/v2alpha1", "TrainingWorkload", WorkloadKind.SKIP_TOP_OWNER),
        new Case("kubeflow.org/v2", "PyTorchJob", WorkloadKind.DEFAULT),
        new Case("v1", "Service", WorkloadKind.DEFAULT),
        new Case("example.com/v1", "Widget", WorkloadKind.DEFAULT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void resolves(Case c) {
    assertThat(WorkloadKind.of(c.apiVersion(), c.kind())).isEqualTo(c.expected());
  }
}
