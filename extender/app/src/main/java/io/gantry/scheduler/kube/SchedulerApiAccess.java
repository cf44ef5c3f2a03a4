package io.gantry.scheduler.kube;

import com.google.common.collect.ImmutableList;

/**
 * Every API call the scheduling core makes (informers, {@link KubeWriter}, {@link LeaseElector}),
 * as RBAC rules. The Helm chart grants exactly these to the scheduler and the extender; a test
 * fails when the chart misses one, and the end-to-end tests fail when the code calls something not
 * listed here. Add a rule here in the change that adds the call.
 */
public final class SchedulerApiAccess {
  public static final ImmutableList<ApiRule> RULES =
      ImmutableList.of(
          ApiRule.cluster("", "pods", "get", "list", "watch", "patch", "delete"),
          ApiRule.cluster("", "pods/binding", "create"),
          ApiRule.cluster("", "pods/status", "patch"),
          ApiRule.cluster("", "nodes", "get", "list", "watch"),
          ApiRule.cluster("", "events", "create", "patch"),
          ApiRule.cluster("scheduling.k8s.io", "priorityclasses", "get", "list", "watch"),
          ApiRule.cluster("batch", "jobs", "get", "list", "watch"),
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
          ApiRule.ownNamespace("coordination.k8s.io", "leases", "get", "create", "update"));

  private SchedulerApiAccess() {}
}
