package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.SubGroupNode;
import java.util.List;

/**
 * KAI's SubsetNodes (kai-reference §4.3, §9): splits the node set a (sub)group's pods may use into
 * candidate sets, tried in the returned order; the first on which every pod of the group fits is
 * kept. Called by allocation and by the victim search's simulated allocation, at the PodGroup root
 * and at every SubGroup, with {@code tasks} the pods of this pass beneath {@code group}. A plugin
 * with nothing to say returns {@link NodeSubsets#unchanged}; an error leaves the group unplaced.
 * Each plugin splits every set the previous one returned.
 */
public interface NodeSubsetter extends Plugin {
  NodeSubsets subsetNodes(
      JobState job, SubGroupNode group, List<TaskState> tasks, NodeSubset current);
}
