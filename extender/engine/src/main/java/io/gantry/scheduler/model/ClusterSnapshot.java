package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.dra.DynamicResources;
import java.time.Instant;

/**
 * Everything one scheduling cycle looks at. Nodes are sorted by name; queues and jobs keep source
 * order (which is also their tie-breaking order). {@code queueUsage} is each queue's historical
 * usage (kai-reference §5.4): per resource, the windowed sum of its allocation over the windowed
 * sum of the cluster's capacity, normally within 0..1; a queue without an entry has used nothing,
 * and an empty map (no usage source) turns time-based fair share off. {@code topologies} are the
 * Topology objects by name (kai-reference §2.4); {@code dynamicResources} the DRA objects
 * (DeviceClasses, ResourceSlices, ResourceClaims). {@code queueHierarchy} holds every queue of the
 * source with its parent, also those left out of {@code queues} (a missing parent, a cycle), so a
 * job of such a queue is told why it waits; by default, that of {@code queues}.
 */
public record ClusterSnapshot(
    Instant now,
    ImmutableList<NodeInfo> nodes,
    ImmutableList<QueueInfo> queues,
    ImmutableList<JobInfo> jobs,
    ImmutableSortedMap<String, ResourceVector> queueUsage,
    ImmutableSortedMap<String, Topology> topologies,
    DynamicResources dynamicResources,
    QueueHierarchy queueHierarchy) {

  public ClusterSnapshot {
    requireNonNull(now, "now is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(jobs, "jobs is null");
    requireNonNull(queueUsage, "queueUsage is null");
    requireNonNull(topologies, "topologies is null");
    requireNonNull(dynamicResources, "dynamicResources is null");
    requireNonNull(queueHierarchy, "queueHierarchy is null");
  }

  /** A snapshot whose queues are all of the source's (none left out). */
  public ClusterSnapshot(
      Instant now,
      ImmutableList<NodeInfo> nodes,
      ImmutableList<QueueInfo> queues,
      ImmutableList<JobInfo> jobs,
      ImmutableSortedMap<String, ResourceVector> queueUsage,
      ImmutableSortedMap<String, Topology> topologies,
      DynamicResources dynamicResources) {
    this(
        now,
        nodes,
        queues,
        jobs,
        queueUsage,
        topologies,
        dynamicResources,
        QueueHierarchy.of(queues));
  }

  /** A snapshot without DRA objects. */
  public ClusterSnapshot(
      Instant now,
      ImmutableList<NodeInfo> nodes,
      ImmutableList<QueueInfo> queues,
      ImmutableList<JobInfo> jobs,
      ImmutableSortedMap<String, ResourceVector> queueUsage,
      ImmutableSortedMap<String, Topology> topologies) {
    this(now, nodes, queues, jobs, queueUsage, topologies, DynamicResources.NONE);
  }

  /** A snapshot without Topology objects. */
  public ClusterSnapshot(
      Instant now,
      ImmutableList<NodeInfo> nodes,
      ImmutableList<QueueInfo> queues,
      ImmutableList<JobInfo> jobs,
      ImmutableSortedMap<String, ResourceVector> queueUsage) {
    this(now, nodes, queues, jobs, queueUsage, ImmutableSortedMap.of());
  }

  /** A snapshot without usage data or Topology objects. */
  public ClusterSnapshot(
      Instant now,
      ImmutableList<NodeInfo> nodes,
      ImmutableList<QueueInfo> queues,
      ImmutableList<JobInfo> jobs) {
    this(now, nodes, queues, jobs, ImmutableSortedMap.of(), ImmutableSortedMap.of());
  }
}
