package io.gantry.scheduler.kube.grouping;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.grouping.OwnerMeta;
import io.gantry.kubemodel.kai.grouping.PodTemplateMeta;
import io.gantry.kubemodel.kai.grouping.RayWorkerGroup;
import io.gantry.kubemodel.kai.grouping.ReplicaSpec;
import io.gantry.kubemodel.kai.grouping.ReplicatedJob;
import io.gantry.kubemodel.kai.grouping.WorkloadKind;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The facts a top owner's grouper reads ({@link WorkloadSpec}), from the owner as the API server
 * stores it (controllers' defaults applied, fields this build does not know ignored). Kinds whose
 * facts live outside the owner — a Knative Service's revision — are {@link #unsupported}; those
 * that depend on the owner chain (a CronJob's Job, a skipped top owner's next owner) are read by
 * {@link OwnerResolver}.
 */
final class WorkloadSpecReader {
  private WorkloadSpecReader() {}

  /** Why a kind's pods cannot be grouped by this build; empty when they can. */
  static Optional<String> unsupported(WorkloadKind kind) {
    if (kind == WorkloadKind.KNATIVE_SERVICE) {
      return Optional.of(
          "grouping the pods of a Knative Service by its revision is not supported by this build");
    }
    return Optional.empty();
  }

  /**
   * The spec of {@code object}, of kind {@code kind}.
   *
   * @param launcherPodExists for an MPIJob: whether a launcher pod of it exists and is not
   *     terminating
   */
  static WorkloadSpec read(WorkloadKind kind, JsonNode object, boolean launcherPodExists) {
    JsonNode spec = object.path("spec");
    return switch (kind) {
      case TF_JOB -> kubeflow(spec, "tfReplicaSpecs", launcherPodExists);
      case PYTORCH_JOB -> kubeflow(spec, "pytorchReplicaSpecs", launcherPodExists);
      case XGBOOST_JOB -> kubeflow(spec, "xgbReplicaSpecs", launcherPodExists);
      case JAX_JOB -> kubeflow(spec, "jaxReplicaSpecs", launcherPodExists);
      case MPI_JOB -> kubeflow(spec, "mpiReplicaSpecs", launcherPodExists);
      case RAY_CLUSTER -> ray(spec);
      case RAY_JOB -> ray(spec.path("rayClusterSpec"));
      case RAY_SERVICE -> ray(spec.path("rayClusterConfig"));
      case JOB_SET -> jobSet(spec);
      case LEADER_WORKER_SET -> leaderWorkerSet(spec);
      case POD, DEPLOYMENT, REPLICA_SET, STATEFUL_SET, BATCH_JOB, NOTEBOOK, SPOT_REQUEST, DEFAULT ->
          WorkloadSpec.PLAIN;
      case CRON_JOB, KNATIVE_SERVICE, SKIP_TOP_OWNER ->
          throw new IllegalArgumentException(
              kind + " is read from the owner chain (OwnerResolver), not from the owner alone");
    };
  }

  /** An object's identity, labels and annotations. */
  static OwnerMeta owner(JsonNode object) {
    JsonNode meta = object.path("metadata");
    return OwnerMeta.of(
        object.path("apiVersion").asText(),
        object.path("kind").asText(),
        meta.path("name").asText(),
        meta.path("uid").asText(),
        strings(meta.path("labels")),
        strings(meta.path("annotations")));
  }

  private static WorkloadSpec kubeflow(
      JsonNode spec, String replicaSpecsKey, boolean launcherPodExists) {
    ImmutableMap.Builder<String, ReplicaSpec> replicas = ImmutableMap.builder();
    for (Map.Entry<String, JsonNode> e : spec.path(replicaSpecsKey).properties()) {
      replicas.put(
          e.getKey(),
          new ReplicaSpec(
              optInt(e.getValue().path("replicas")), template(e.getValue().path("template"))));
    }
    return new WorkloadSpec.KubeflowSpec(
        replicas.buildOrThrow(),
        optInt(spec.path("runPolicy").path("schedulingPolicy").path("minAvailable")),
        optInt(spec.path("elasticPolicy").path("minReplicas")),
        optText(spec.path("launcherCreationPolicy")),
        launcherPodExists);
  }

  private static WorkloadSpec ray(JsonNode cluster) {
    JsonNode head = cluster.path("headGroupSpec");
    ImmutableList.Builder<RayWorkerGroup> workers = ImmutableList.builder();
    for (JsonNode group : cluster.path("workerGroupSpecs")) {
      workers.add(
          new RayWorkerGroup(
              optText(group.path("groupName")),
              optInt(group.path("replicas")),
              optInt(group.path("minReplicas")),
              optInt(group.path("numOfHosts")),
              group.path("suspend").asBoolean(false),
              template(group.path("template"))));
    }
    return new WorkloadSpec.RaySpec(
        head.isObject() ? Optional.of(template(head.path("template"))) : Optional.empty(),
        workers.build(),
        cluster.path("enableInTreeAutoscaling").asBoolean(false));
  }

  private static WorkloadSpec jobSet(JsonNode spec) {
    ImmutableList.Builder<ReplicatedJob> jobs = ImmutableList.builder();
    for (JsonNode rj : spec.path("replicatedJobs")) {
      JsonNode template = rj.path("template");
      jobs.add(
          new ReplicatedJob(
              rj.path("name").asText(),
              optInt(rj.path("replicas")),
              optInt(template.path("spec").path("parallelism")),
              template(template)));
    }
    return new WorkloadSpec.JobSetSpec(
        jobs.build(), optText(spec.path("startupPolicy").path("startupPolicyOrder")));
  }

  private static WorkloadSpec leaderWorkerSet(JsonNode spec) {
    JsonNode template = spec.path("leaderWorkerTemplate");
    JsonNode policy = template.path("subGroupPolicy");
    JsonNode workers = template.path("workerTemplate");
    return new WorkloadSpec.LeaderWorkerSetSpec(
        optInt(template.path("size")),
        optText(spec.path("startupPolicy")),
        optInt(policy.path("subGroupSize")),
        optText(policy.path("subGroupPolicyType")),
        workers.isObject() ? Optional.of(template(workers)) : Optional.empty());
  }

  /** A template's {@code metadata.labels} and {@code metadata.annotations}. */
  private static PodTemplateMeta template(JsonNode template) {
    JsonNode meta = template.path("metadata");
    return PodTemplateMeta.of(strings(meta.path("labels")), strings(meta.path("annotations")));
  }

  private static Map<String, String> strings(JsonNode map) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  private static OptionalInt optInt(JsonNode node) {
    return node.isIntegralNumber() ? OptionalInt.of(node.asInt()) : OptionalInt.empty();
  }

  private static Optional<String> optText(JsonNode node) {
    return node.isTextual() && !node.asText().isEmpty()
        ? Optional.of(node.asText())
        : Optional.empty();
  }
}
