package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.kai.grouping.RayGrouper;
import io.gantry.kubemodel.kai.grouping.RayWorkerGroup;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The pods of a Ray cluster — a RayCluster, or the cluster a RayJob ({@code spec.rayClusterSpec})
 * or RayService ({@code spec.rayClusterConfig}) runs: the head {@code <name>-head} and, per worker
 * group, {@code replicas × numOfHosts} pods {@code <name>-<group>-worker-<index>}, labelled {@code
 * ray.io/group} as KubeRay labels them. A RayJob's submitter pod starts once the cluster is ready,
 * so it is not among them.
 */
final class RayWorkloads {
  static final String NODE_TYPE_LABEL = "ray.io/node-type";
  static final String CLUSTER_LABEL = "ray.io/cluster";

  private static final ImmutableSet<String> CLUSTER_KEYS =
      ImmutableSet.of(
          "headGroupSpec",
          "workerGroupSpecs",
          "enableInTreeAutoscaling",
          "autoscalerOptions",
          "rayVersion",
          "headServiceAnnotations",
          "suspend",
          "gcsFaultToleranceOptions",
          "managedBy");
  private static final ImmutableSet<String> RAY_JOB_KEYS =
      ImmutableSet.of(
          "rayClusterSpec",
          "entrypoint",
          "runtimeEnvYAML",
          "jobId",
          "shutdownAfterJobFinishes",
          "ttlSecondsAfterFinished",
          "activeDeadlineSeconds",
          "submissionMode",
          "submitterPodTemplate",
          "submitterConfig",
          "entrypointNumCpus",
          "entrypointNumGpus",
          "entrypointResources",
          "metadata",
          "suspend",
          "managedBy",
          "backoffLimit",
          "deletionStrategy");
  private static final ImmutableMap<String, String> RAY_JOB_REFUSED =
      ImmutableMap.of(
          "clusterSelector", "a RayJob on an existing cluster starts no cluster of its own");
  private static final ImmutableSet<String> RAY_SERVICE_KEYS =
      ImmutableSet.of(
          "rayClusterConfig",
          "serveConfigV2",
          "serviceUnhealthySecondThreshold",
          "deploymentUnhealthySecondThreshold",
          "serveService",
          "upgradeStrategy",
          "excludeHeadPodFromServeSvc",
          "rayClusterDeletionDelaySeconds");
  private static final ImmutableSet<String> HEAD_KEYS =
      ImmutableSet.of("template", "rayStartParams", "serviceType", "enableIngress", "headService");
  private static final ImmutableSet<String> WORKER_KEYS =
      ImmutableSet.of(
          "groupName",
          "replicas",
          "minReplicas",
          "maxReplicas",
          "numOfHosts",
          "template",
          "rayStartParams",
          "scaleStrategy",
          "suspend",
          "idleTimeoutSeconds");

  private RayWorkloads() {}

  static List<ManifestPod> rayCluster(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    return cluster(object, object.requiredSpec(), budget);
  }

  static List<ManifestPod> rayJob(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), RAY_JOB_KEYS, RAY_JOB_REFUSED);
    ManifestKeys.requireNotTrue(spec, "suspend", "a suspended RayJob starts no cluster");
    return cluster(object, spec.required("rayClusterSpec"), budget);
  }

  static List<ManifestPod> rayService(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), RAY_SERVICE_KEYS);
    return cluster(object, spec.required("rayClusterConfig"), budget);
  }

  private static List<ManifestPod> cluster(
      ManifestObject object, Field clusterField, PodBudget budget) throws ScenarioException {
    MapReader cluster = ManifestKeys.read(clusterField, CLUSTER_KEYS);
    ManifestKeys.requireNotTrue(cluster, "suspend", "a suspended Ray cluster starts no pods");
    MapReader head = ManifestKeys.read(cluster.required("headGroupSpec"), HEAD_KEYS);
    ManifestPodTemplate headTemplate = PodTemplateBinder.bind(head.required("template"));
    budget.take(1, cluster.required("headGroupSpec"));

    List<RayWorkerGroup> groups = new ArrayList<>();
    List<ManifestPodTemplate> templates = new ArrayList<>();
    List<Long> podCounts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Field> items = cluster.list("workerGroupSpecs");
    for (int i = 0; i < items.size(); i++) {
      MapReader group = ManifestKeys.read(items.get(i), WORKER_KEYS);
      Optional<String> groupName = group.optString("groupName").filter(n -> !n.isEmpty());
      OptionalInt replicas = group.optInt("replicas", 0);
      OptionalInt minReplicas = group.optInt("minReplicas", 0);
      OptionalInt hosts = group.optInt("numOfHosts", 1);
      boolean suspended = group.booleanOr("suspend", false);
      ManifestPodTemplate template = PodTemplateBinder.bind(group.required("template"));
      long pods = suspended ? 0 : (long) replicas.orElse(0) * hosts.orElse(1);
      budget.take(pods, group.optional("replicas").orElse(items.get(i)));
      groups.add(
          new RayWorkerGroup(groupName, replicas, minReplicas, hosts, suspended, template.meta()));
      templates.add(template);
      podCounts.add(pods);
      names.add(groupName.orElse("worker-group-" + i));
    }
    WorkloadSpec.RaySpec spec =
        new WorkloadSpec.RaySpec(
            Optional.of(headTemplate.meta()),
            ImmutableList.copyOf(groups),
            cluster.booleanOr("enableInTreeAutoscaling", false));

    WorkloadPods pods = new WorkloadPods(object);
    pods.add(
        object.name() + "-head",
        headTemplate,
        Map.of(
            RayGrouper.GROUP_LABEL,
            RayGrouper.HEAD_GROUP,
            NODE_TYPE_LABEL,
            "head",
            CLUSTER_LABEL,
            object.name()),
        spec);
    for (int g = 0; g < groups.size(); g++) {
      for (long p = 0; p < podCounts.get(g); p++) {
        pods.add(
            object.name() + "-" + names.get(g) + "-worker-" + p,
            templates.get(g),
            Map.of(
                RayGrouper.GROUP_LABEL,
                names.get(g),
                NODE_TYPE_LABEL,
                "worker",
                CLUSTER_LABEL,
                object.name()),
            spec);
      }
    }
    return pods.build();
  }
}
