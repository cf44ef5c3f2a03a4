package io.gantry.scheduler.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.plugins.NodePlacementArgs;
import io.gantry.scheduler.plugins.PluginSetting;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A compiled scenario: the cluster, its workloads and the scheduler configuration to run. */
record SimWorld(
    String name,
    Instant start,
    int cycles,
    Duration cyclePeriod,
    List<String> actions,
    Map<String, PluginSetting> plugins,
    NodePlacementArgs placement,
    ImmutableList<NodeInfo> nodes,
    ImmutableList<QueueInfo> queues,
    List<SimJob> jobs) {
  SimWorld {
    requireNonNull(name, "name is null");
    requireNonNull(start, "start is null");
    requireNonNull(cyclePeriod, "cyclePeriod is null");
    requireNonNull(actions, "actions is null");
    requireNonNull(plugins, "plugins is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(jobs, "jobs is null");
  }
}
