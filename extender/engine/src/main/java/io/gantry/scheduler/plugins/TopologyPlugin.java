package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.NodeSubset;
import io.gantry.scheduler.framework.NodeSubsets;
import io.gantry.scheduler.framework.NodeSubsetter;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.TopologyMissing;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.plugins.topology.TopologyPlacement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * KAI's {@code topology} plugin (kai-reference §9): builds each Topology's domain tree when the
 * session opens, and splits the nodes a constrained PodGroup or SubGroup may use into candidate
 * domains ({@link TopologyPlacement}). Groups without a constraint keep their node set.
 */
public final class TopologyPlugin implements SessionOpenHook, NodeSubsetter {
  public static final String NAME = "topology";

  private final Map<String, TopologyPlacement> placements = new TreeMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session) {
    placements.clear();
    List<NodeState> nodes = session.nodes();
    for (Map.Entry<String, Topology> e : session.snapshot().topologies().entrySet()) {
      placements.put(e.getKey(), TopologyPlacement.build(e.getValue(), nodes));
    }
  }

  @Override
  public NodeSubsets subsetNodes(
      JobState job, SubGroupNode group, List<TaskState> tasks, NodeSubset current) {
    if (group.topologyConstraint().isEmpty()) {
      return NodeSubsets.unchanged(current);
    }
    TopologyConstraint constraint = group.topologyConstraint().get();
    TopologyPlacement placement = placements.get(constraint.topology());
    if (placement == null) {
      return NodeSubsets.failed(new TopologyMissing(constraint.topology()));
    }
    return placement.subsets(job, group, constraint, tasks, current);
  }
}
