package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Ray: RayCluster, RayJob and RayService, {@code ray.io/v1} and {@code v1alpha1} (kai-reference
 * §3.4). One PodGroup {@code pg-<top owner>-<uid>} over the Ray cluster the top owner is or runs: a
 * SubGroup {@value #HEAD_GROUP} of 1 and one per worker group — named by its {@code groupName},
 * else {@code worker-group-<index>} — of {@code minReplicas × numOfHosts} pods when the cluster
 * autoscales or sets minReplicas, else {@code replicas × numOfHosts}; suspended groups and groups
 * of no replicas are left out. The gang is the head plus every group's share. A pod belongs to the
 * SubGroup its {@value #GROUP_LABEL} label names. The top owner's {@value #PRIORITY_LABEL} label
 * sets the priority class as written; a RayJob's PodGroup is evicted by suspending it ({@value
 * #EVICTION_STRATEGY}: {@code suspend}).
 */
public final class RayGrouper implements Grouper {
  public static final String HEAD_GROUP = "headgroup";
  public static final String GROUP_LABEL = "ray.io/group";
  public static final String PRIORITY_LABEL = "ray.io/priority-class-name";
  public static final String EVICTION_STRATEGY = "kai.scheduler/eviction-strategy";

  private final DefaultGrouper defaults;
  private final String clusterSpecField;
  private final boolean suspendOnEviction;

  private RayGrouper(DefaultGrouper defaults, String clusterSpecField, boolean suspendOnEviction) {
    this.defaults = requireNonNull(defaults, "defaults is null");
    this.clusterSpecField = clusterSpecField;
    this.suspendOnEviction = suspendOnEviction;
  }

  public static RayGrouper rayCluster(DefaultGrouper defaults) {
    return new RayGrouper(defaults, "spec", false);
  }

  /** A RayJob, whose cluster is {@code spec.rayClusterSpec}. */
  public static RayGrouper rayJob(DefaultGrouper defaults) {
    return new RayGrouper(defaults, "spec.rayClusterSpec", true);
  }

  /** A RayService, whose cluster is {@code spec.rayClusterConfig}. */
  public static RayGrouper rayService(DefaultGrouper defaults) {
    return new RayGrouper(defaults, "spec.rayClusterConfig", false);
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.RaySpec spec = DefaultGrouper.spec(input, WorkloadSpec.RaySpec.class);
    OwnerMeta top = input.topOwner();
    PodGroupPlan plan = defaults.plan(top, List.of(top), input.pod(), DefaultGrouper.TRAIN);

    ImmutableList.Builder<PlannedSubGroup> subGroups = ImmutableList.builder();
    subGroups.add(
        PlannedSubGroup.leaf(HEAD_GROUP, Optional.empty(), 1)
            .withTopologyConstraint(
                spec.headTemplate().isPresent()
                    ? templateConstraint(
                        spec.headTemplate().get().annotations(),
                        clusterSpecField + ".headGroupSpec")
                    : Optional.empty()));
    long gang = 1;
    for (int i = 0; i < spec.workerGroups().size(); i++) {
      RayWorkerGroup group = spec.workerGroups().get(i);
      String field = clusterSpecField + ".workerGroupSpecs[" + i + "]";
      if (group.suspended()) {
        continue;
      }
      int replicas = group.replicas().orElse(0);
      int minReplicas = group.minReplicas().orElse(0);
      if (minReplicas > replicas) {
        throw new KaiObjectException(
            field + ".minReplicas",
            "ray-cluster replicas for a workerGroupsSpec can't be less than minReplicas. Given "
                + replicas
                + " replicas and "
                + minReplicas
                + " minReplicas. Please fix the replicas field for group number "
                + i);
      }
      if (replicas == 0 && minReplicas == 0) {
        continue;
      }
      long hosts = group.numOfHosts().orElse(1);
      long groupMin =
          spec.enableInTreeAutoscaling() || minReplicas > 0
              ? minReplicas * hosts
              : replicas * hosts;
      if (groupMin > Integer.MAX_VALUE) {
        throw new KaiObjectException(
            field + ".numOfHosts", "more than " + Integer.MAX_VALUE + " pods");
      }
      gang += groupMin;
      String name = group.groupName().filter(n -> !n.isEmpty()).orElse("worker-group-" + i);
      subGroups.add(
          PlannedSubGroup.leaf(name, Optional.empty(), (int) groupMin)
              .withTopologyConstraint(templateConstraint(group.template().annotations(), field)));
    }
    if (gang > Integer.MAX_VALUE) {
      throw new KaiObjectException(
          clusterSpecField + ".workerGroupSpecs", "more than " + Integer.MAX_VALUE + " pods");
    }
    ImmutableList<PlannedSubGroup> built = subGroups.build();
    String podGroup = input.pod().labels().getOrDefault(GROUP_LABEL, "");
    Optional<String> leaf =
        built.stream().map(PlannedSubGroup::name).filter(podGroup::equals).findFirst();
    plan = plan.withMinMember((int) gang).withSubGroups(OptionalInt.empty(), built, leaf);
    String rayPriority = top.labels().get(PRIORITY_LABEL);
    if (rayPriority != null) {
      plan = plan.withPriorityClassName(rayPriority);
    }
    return suspendOnEviction ? plan.withAnnotation(EVICTION_STRATEGY, "suspend") : plan;
  }

  /**
   * A Ray group's constraint from its template's annotations: none without a level; a level without
   * a topology is an error.
   */
  private static Optional<TopologyConstraint> templateConstraint(
      Map<String, String> annotations, String groupField) {
    Optional<String> required =
        DefaultGrouper.nonEmpty(annotations.get(DefaultGrouper.TOPOLOGY_REQUIRED));
    Optional<String> preferred =
        DefaultGrouper.nonEmpty(annotations.get(DefaultGrouper.TOPOLOGY_PREFERRED));
    if (required.isEmpty() && preferred.isEmpty()) {
      return Optional.empty();
    }
    String topology = annotations.getOrDefault(DefaultGrouper.TOPOLOGY, "");
    if (topology.isEmpty()) {
      throw new KaiObjectException(
          groupField + ".template.metadata.annotations." + DefaultGrouper.TOPOLOGY,
          "topology annotation ("
              + DefaultGrouper.TOPOLOGY
              + ") is required when topology placement annotations are set");
    }
    return Optional.of(new TopologyConstraint(topology, required, preferred));
  }
}
