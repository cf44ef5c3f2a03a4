package io.gantry.scheduler.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DynamicResources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A compiled scenario: the cluster, its workloads and the scheduler configuration to run. {@code
 * dynamicResources} holds the DRA objects with no claim allocated; {@code claimAllocations} (by
 * {@code <namespace>/<claim>}, sorted) what binds have written into claims' status so far.
 */
record SimWorld(
    String name,
    Instant start,
    int cycles,
    Duration cyclePeriod,
    SchedulerConfig config,
    ImmutableList<NodeInfo> nodes,
    ImmutableList<QueueInfo> queues,
    ImmutableSortedMap<String, Topology> topologies,
    List<SimJob> jobs,
    DynamicResources dynamicResources,
    Map<String, AllocationResult> claimAllocations) {
  SimWorld {
    requireNonNull(name, "name is null");
    requireNonNull(start, "start is null");
    requireNonNull(cyclePeriod, "cyclePeriod is null");
    requireNonNull(config, "config is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(topologies, "topologies is null");
    requireNonNull(jobs, "jobs is null");
    requireNonNull(dynamicResources, "dynamicResources is null");
    requireNonNull(claimAllocations, "claimAllocations is null");
  }
}
