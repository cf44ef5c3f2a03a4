package io.gantry.scheduler.kube.access;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.kube.informers.OwnerCache;
import io.gantry.scheduler.kube.lease.LeaseElector;
import io.gantry.scheduler.kube.write.KubeWriter;

/**
 * Every API call the scheduling core makes (informers, the pod grouper's {@link OwnerCache}, {@link
 * KubeWriter}, {@link LeaseElector}), as RBAC rules. The pod grouper reads the owner kinds KAI's
 * podgrouper groups; a pod owned by another kind waits with the API server's refusal as its message
 * until a rule for that kind is granted. The Helm chart grants exactly these to the scheduler and
 * the extender; a test fails when the chart misses one, and the end-to-end tests fail when the code
 * calls something not listed here. Add a rule here in the change that adds the call.
 */
public final class SchedulerApiAccess {
  public static final ImmutableList<ApiRule> RULES =
      ImmutableList.of(
          // create: reservation pods and scaling pods (reservation-pods mode, kai-reference §7)
          ApiRule.cluster("", "pods", "get", "list", "watch", "patch", "delete", "create"),
          ApiRule.cluster("", "pods/binding", "create"),
          ApiRule.cluster("", "pods/status", "patch"),
          ApiRule.cluster("", "nodes", "get", "list", "watch"),
          ApiRule.cluster("", "events", "create", "patch"),
          ApiRule.cluster("scheduling.k8s.io", "priorityclasses", "get", "list", "watch"),
          ApiRule.cluster("batch", "jobs", "get", "list", "watch"),
          // the pod grouper's owners (kai-reference §3.4) and its per-type defaults ConfigMap; the
          // fraction pods' environment ConfigMaps, written at bind (reservation-pods mode)
          ApiRule.cluster("", "configmaps", "get", "list", "watch", "create", "update"),
          ApiRule.cluster("apps", "deployments", "get", "list", "watch"),
          ApiRule.cluster("apps", "replicasets", "get", "list", "watch"),
          ApiRule.cluster("apps", "statefulsets", "get", "list", "watch"),
          ApiRule.cluster("batch", "cronjobs", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "tfjobs", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "pytorchjobs", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "xgboostjobs", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "jaxjobs", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "mpijobs", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "notebooks", "get", "list", "watch"),
          ApiRule.cluster("kubeflow.org", "scheduledworkflows", "get", "list", "watch"),
          ApiRule.cluster("trainer.kubeflow.org", "trainjobs", "get", "list", "watch"),
          ApiRule.cluster("ray.io", "rayclusters", "get", "list", "watch"),
          ApiRule.cluster("ray.io", "rayjobs", "get", "list", "watch"),
          ApiRule.cluster("ray.io", "rayservices", "get", "list", "watch"),
          ApiRule.cluster("jobset.x-k8s.io", "jobsets", "get", "list", "watch"),
          ApiRule.cluster("leaderworkerset.x-k8s.io", "leaderworkersets", "get", "list", "watch"),
          ApiRule.cluster("serving.knative.dev", "services", "get", "list", "watch"),
          ApiRule.cluster("serving.knative.dev", "configurations", "get", "list", "watch"),
          ApiRule.cluster("serving.knative.dev", "revisions", "get", "list", "watch"),
          ApiRule.cluster("argoproj.io", "workflows", "get", "list", "watch"),
          ApiRule.cluster("egx.nvidia.io", "spotrequests", "get", "list", "watch"),
          ApiRule.cluster(
              "scheduling.run.ai",
              "podgroups",
              "get",
              "list",
              "watch",
              "create",
              "patch",
              "update"),
          ApiRule.cluster("scheduling.run.ai", "podgroups/status", "patch", "update"),
          ApiRule.cluster("scheduling.run.ai", "queues", "get", "list", "watch"),
          ApiRule.cluster("scheduling.run.ai", "queues/status", "patch", "update"),
          ApiRule.cluster("kai.scheduler", "topologies", "get", "list", "watch"),
          // DRA (protocols.md §4): the informers, and the claim writes around a pod's binding
          ApiRule.cluster("resource.k8s.io", "deviceclasses", "get", "list", "watch"),
          ApiRule.cluster("resource.k8s.io", "resourceslices", "get", "list", "watch"),
          ApiRule.cluster("resource.k8s.io", "resourceclaimtemplates", "get", "list", "watch"),
          ApiRule.cluster("resource.k8s.io", "resourceclaims", "get", "list", "watch", "patch"),
          ApiRule.cluster("resource.k8s.io", "resourceclaims/status", "patch"),
          ApiRule.ownNamespace("coordination.k8s.io", "leases", "get", "create", "update"));

  private SchedulerApiAccess() {}
}
