package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Arrays;

/**
 * The top-owner types KAI's podgrouper has a grouper for (kai-reference §3.4), by API group,
 * version and kind; every other type is {@link #DEFAULT}. A version of {@code *} matches any
 * version of the group and kind. Each kind names the {@link WorkloadSpec} its grouper reads.
 */
public enum WorkloadKind {
  /** A pod without owners. */
  POD(WorkloadSpec.Plain.class, "/v1/Pod"),
  DEPLOYMENT(WorkloadSpec.Plain.class, "apps/v1/Deployment"),
  REPLICA_SET(WorkloadSpec.Plain.class, "apps/v1/ReplicaSet"),
  STATEFUL_SET(WorkloadSpec.Plain.class, "apps/v1/StatefulSet"),
  BATCH_JOB(WorkloadSpec.Plain.class, "batch/v1/Job"),
  CRON_JOB(WorkloadSpec.CronJobSpec.class, "batch/v1/CronJob"),
  TF_JOB(WorkloadSpec.KubeflowSpec.class, "kubeflow.org/v1/TFJob"),
  PYTORCH_JOB(WorkloadSpec.KubeflowSpec.class, "kubeflow.org/v1/PyTorchJob"),
  XGBOOST_JOB(WorkloadSpec.KubeflowSpec.class, "kubeflow.org/v1/XGBoostJob"),
  JAX_JOB(WorkloadSpec.KubeflowSpec.class, "kubeflow.org/v1/JAXJob"),
  MPI_JOB(WorkloadSpec.KubeflowSpec.class, "kubeflow.org/v1/MPIJob", "kubeflow.org/v2beta1/MPIJob"),
  NOTEBOOK(WorkloadSpec.Plain.class, "kubeflow.org/v1beta1/Notebook"),
  SPOT_REQUEST(WorkloadSpec.Plain.class, "egx.nvidia.io/v1/SPOTRequest"),
  RAY_CLUSTER(WorkloadSpec.RaySpec.class, "ray.io/v1/RayCluster", "ray.io/v1alpha1/RayCluster"),
  RAY_JOB(WorkloadSpec.RaySpec.class, "ray.io/v1/RayJob", "ray.io/v1alpha1/RayJob"),
  RAY_SERVICE(WorkloadSpec.RaySpec.class, "ray.io/v1/RayService", "ray.io/v1alpha1/RayService"),
  JOB_SET(WorkloadSpec.JobSetSpec.class, "jobset.x-k8s.io/v1alpha2/JobSet"),
  LEADER_WORKER_SET(
      WorkloadSpec.LeaderWorkerSetSpec.class, "leaderworkerset.x-k8s.io/v1/LeaderWorkerSet"),
  KNATIVE_SERVICE(WorkloadSpec.KnativeSpec.class, "serving.knative.dev/v1/Service"),
  /** Grouped by the next owner down. */
  SKIP_TOP_OWNER(
      WorkloadSpec.SkipTopOwnerSpec.class,
      "argoproj.io/v1alpha1/Workflow",
      "trainer.kubeflow.org/v1alpha1/TrainJob",
      "run.ai/*/TrainingWorkload",
      "run.ai/*/InteractiveWorkload",
      "run.ai/*/DistributedWorkload",
      "run.ai/*/InferenceWorkload",
      "run.ai/*/DistributedInferenceWorkload",
      "run.ai/*/WorkloadRunner"),
  /** Any other type, StatefulSets and ReplicaSets among them: one PodGroup for the top owner. */
  DEFAULT(WorkloadSpec.Plain.class);

  private static final ImmutableMap<String, WorkloadKind> BY_TYPE = byType();

  private final Class<? extends WorkloadSpec> specType;
  private final ImmutableList<String> types;

  WorkloadKind(Class<? extends WorkloadSpec> specType, String... types) {
    this.specType = specType;
    this.types = ImmutableList.copyOf(types);
  }

  private static ImmutableMap<String, WorkloadKind> byType() {
    ImmutableMap.Builder<String, WorkloadKind> out = ImmutableMap.builder();
    Arrays.stream(values()).forEach(k -> k.types.forEach(t -> out.put(t, k)));
    return out.buildOrThrow();
  }

  /** The spec the kind's grouper reads. */
  public Class<? extends WorkloadSpec> specType() {
    return specType;
  }

  /** The kind of a top owner; {@code apiVersion} as in an owner reference. */
  public static WorkloadKind of(String apiVersion, String kind) {
    requireNonNull(apiVersion, "apiVersion is null");
    requireNonNull(kind, "kind is null");
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    WorkloadKind exact = BY_TYPE.get(group + "/" + version + "/" + kind);
    if (exact != null) {
      return exact;
    }
    return BY_TYPE.getOrDefault(group + "/*/" + kind, DEFAULT);
  }

  public static WorkloadKind of(OwnerMeta owner) {
    return of(owner.apiVersion(), owner.kind());
  }
}
