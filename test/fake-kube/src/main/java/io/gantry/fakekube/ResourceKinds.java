package io.gantry.fakekube;

import static io.gantry.fakekube.ResourceKind.StatusPolicy.NONE;
import static io.gantry.fakekube.ResourceKind.StatusPolicy.SUBRESOURCE;
import static io.gantry.fakekube.ResourceKind.StatusPolicy.SUBRESOURCE_KEPT_ON_CREATE;

import com.google.common.collect.ImmutableList;

/** The built-in kinds and KAI's CRDs that the fake knows by name. */
public final class ResourceKinds {
  public static final ResourceKind PODS = core("pods", "Pod", true, SUBRESOURCE);
  public static final ResourceKind NODES = core("nodes", "Node", false, SUBRESOURCE_KEPT_ON_CREATE);
  public static final ResourceKind NAMESPACES =
      core("namespaces", "Namespace", false, SUBRESOURCE_KEPT_ON_CREATE);
  public static final ResourceKind EVENTS = core("events", "Event", true, NONE);
  public static final ResourceKind CONFIG_MAPS = core("configmaps", "ConfigMap", true, NONE);
  public static final ResourceKind SECRETS = core("secrets", "Secret", true, NONE);
  public static final ResourceKind SERVICES = core("services", "Service", true, SUBRESOURCE);
  public static final ResourceKind SERVICE_ACCOUNTS =
      core("serviceaccounts", "ServiceAccount", true, NONE);
  public static final ResourceKind BINDINGS = core("bindings", "Binding", true, NONE);

  public static final ResourceKind EVENTS_V1 =
      builtIn("events.k8s.io", "v1", "events", "Event", true, NONE);
  public static final ResourceKind LEASES =
      builtIn("coordination.k8s.io", "v1", "leases", "Lease", true, NONE);
  public static final ResourceKind PRIORITY_CLASSES =
      builtIn("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false, NONE);
  public static final ResourceKind JOBS = builtIn("batch", "v1", "jobs", "Job", true, SUBRESOURCE);
  public static final ResourceKind DEPLOYMENTS =
      builtIn("apps", "v1", "deployments", "Deployment", true, SUBRESOURCE);
  public static final ResourceKind REPLICA_SETS =
      builtIn("apps", "v1", "replicasets", "ReplicaSet", true, SUBRESOURCE);
  public static final ResourceKind STATEFUL_SETS =
      builtIn("apps", "v1", "statefulsets", "StatefulSet", true, SUBRESOURCE);
  public static final ResourceKind DAEMON_SETS =
      builtIn("apps", "v1", "daemonsets", "DaemonSet", true, SUBRESOURCE);

  public static final ResourceKind RESOURCE_SLICES =
      builtIn("resource.k8s.io", "v1", "resourceslices", "ResourceSlice", false, NONE);
  public static final ResourceKind RESOURCE_CLAIMS =
      builtIn("resource.k8s.io", "v1", "resourceclaims", "ResourceClaim", true, SUBRESOURCE);
  public static final ResourceKind DEVICE_CLASSES =
      builtIn("resource.k8s.io", "v1", "deviceclasses", "DeviceClass", false, NONE);
  public static final ResourceKind RESOURCE_CLAIM_TEMPLATES =
      builtIn(
          "resource.k8s.io", "v1", "resourceclaimtemplates", "ResourceClaimTemplate", true, NONE);

  public static final ResourceKind CUSTOM_RESOURCE_DEFINITIONS =
      builtIn(
          "apiextensions.k8s.io",
          "v1",
          "customresourcedefinitions",
          "CustomResourceDefinition",
          false,
          SUBRESOURCE);

  public static final ResourceKind QUEUES =
      crd("scheduling.run.ai", "v2", "queues", "Queue", false);
  public static final ResourceKind POD_GROUPS =
      crd("scheduling.run.ai", "v2alpha2", "podgroups", "PodGroup", true);
  public static final ResourceKind TOPOLOGIES =
      crd("kai.scheduler", "v1alpha1", "topologies", "Topology", false);

  /** Every kind above, in a fixed order. */
  public static final ImmutableList<ResourceKind> ALL =
      ImmutableList.of(
          PODS,
          NODES,
          NAMESPACES,
          EVENTS,
          CONFIG_MAPS,
          SECRETS,
          SERVICES,
          SERVICE_ACCOUNTS,
          BINDINGS,
          EVENTS_V1,
          LEASES,
          PRIORITY_CLASSES,
          JOBS,
          DEPLOYMENTS,
          REPLICA_SETS,
          STATEFUL_SETS,
          DAEMON_SETS,
          RESOURCE_SLICES,
          RESOURCE_CLAIMS,
          DEVICE_CLASSES,
          RESOURCE_CLAIM_TEMPLATES,
          CUSTOM_RESOURCE_DEFINITIONS,
          QUEUES,
          POD_GROUPS,
          TOPOLOGIES);

  private ResourceKinds() {}

  /** A custom resource: status is a subresource, as in KAI's CRDs. */
  public static ResourceKind crd(
      String group, String version, String plural, String kind, boolean namespaced) {
    return new ResourceKind(group, version, plural, kind, namespaced, SUBRESOURCE, true);
  }

  private static ResourceKind core(
      String plural, String kind, boolean namespaced, ResourceKind.StatusPolicy status) {
    return builtIn("", "v1", plural, kind, namespaced, status);
  }

  private static ResourceKind builtIn(
      String group,
      String version,
      String plural,
      String kind,
      boolean namespaced,
      ResourceKind.StatusPolicy status) {
    return new ResourceKind(group, version, plural, kind, namespaced, status, false);
  }
}
