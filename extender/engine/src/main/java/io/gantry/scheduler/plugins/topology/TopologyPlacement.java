package io.gantry.scheduler.plugins.topology;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.NodeSubset;
import io.gantry.scheduler.framework.NodeSubsets;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.framework.fit.TopologyLevelMissing;
import io.gantry.scheduler.framework.fit.TopologyNoDomainFits;
import io.gantry.scheduler.framework.fit.TopologyUnsatisfiable;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * One Topology's SubsetNodes in a session (kai-reference §9 (a)–(g)): resolves the constraint's
 * levels, checks that the group fits in the lowest common domain of its nodes, and returns the
 * candidate domains in order, kept inside the required-level domains that already hold running pods
 * of the group.
 */
public final class TopologyPlacement {
  private final TopologyTree tree;

  private TopologyPlacement(TopologyTree tree) {
    this.tree = tree;
  }

  public static TopologyPlacement build(Topology topology, List<NodeState> nodes) {
    return new TopologyPlacement(TopologyTree.build(topology, nodes));
  }

  public NodeSubsets subsets(
      JobState job,
      SubGroupNode group,
      TopologyConstraint constraint,
      List<TaskState> tasks,
      NodeSubset current) {
    Topology topology = tree.topology();
    Optional<Integer> required = Optional.empty();
    Optional<Integer> preferred = Optional.empty();
    if (constraint.requiredLevel().isPresent()) {
      OptionalInt index = topology.levelIndex(constraint.requiredLevel().get());
      if (index.isEmpty()) {
        return NodeSubsets.failed(
            new TopologyLevelMissing(topology.name(), constraint.requiredLevel().get()));
      }
      required = Optional.of(index.getAsInt());
    }
    if (constraint.preferredLevel().isPresent()) {
      OptionalInt index = topology.levelIndex(constraint.preferredLevel().get());
      if (index.isEmpty()) {
        return NodeSubsets.failed(
            new TopologyLevelMissing(topology.name(), constraint.preferredLevel().get()));
      }
      // a preferred level wider than the required one adds nothing the required one does not
      if (required.isEmpty() || index.getAsInt() >= required.get()) {
        preferred = Optional.of(index.getAsInt());
      }
    }
    if (required.isEmpty() && preferred.isEmpty()) {
      return NodeSubsets.unchanged(current);
    }
    int deepest = preferred.orElseGet(required::get);
    Optional<Set<String>> allowed = Optional.empty();
    if (!current.everyNode()) {
      Set<String> names = new HashSet<>();
      current.nodes().forEach(n -> names.add(n.name()));
      allowed = Optional.of(names);
    }
    GroupRequest request = GroupRequest.of(tasks);
    DomainCandidates domains = new DomainCandidates(tree, allowed, request, deepest, preferred);
    String requirement =
        required.isPresent() ? constraint.requiredLevel().get() : constraint.preferredLevel().get();
    Optional<String> subGroup =
        group instanceof SubGroupSet s && s.name().isEmpty()
            ? Optional.empty()
            : Optional.of(group.name());
    if (!domains.fitsAnywhere()) {
      return NodeSubsets.failed(
          new TopologyUnsatisfiable(
              topology.name(),
              requirement,
              job.id(),
              subGroup,
              domains.lowestCommonDomain().map(Domain::id)));
    }
    int widest = required.orElse(-1);
    Optional<Set<String>> pinned =
        required.map(level -> pinnedDomains(job, group, level)).filter(p -> !p.isEmpty());
    ImmutableList<NodeSubset> candidates = domains.candidates(widest, pinned, current.scores());
    if (!candidates.isEmpty()) {
      return NodeSubsets.of(candidates);
    }
    // KAI lists the widest level's domains that were too small, then the unmet requirement
    return NodeSubsets.failed(
        ImmutableList.<JobFitReason>builder()
            .addAll(domains.shortfalls(widest, pinned))
            .add(new TopologyNoDomainFits(topology.name(), requirement, job.id(), subGroup))
            .build());
  }

  /** The required-level domains that already hold active pods of the group. */
  private Set<String> pinnedDomains(JobState job, SubGroupNode group, int level) {
    Set<String> out = new TreeSet<>();
    for (PodSet p : podSets(group)) {
      for (TaskState t : job.tasks(p)) {
        if (t.status().isActiveAllocated() && t.nodeName().isPresent()) {
          tree.idsOf(t.nodeName().get()).ifPresent(ids -> out.add(ids.get(level)));
        }
      }
    }
    return out;
  }

  private static List<PodSet> podSets(SubGroupNode node) {
    if (node instanceof PodSet p) {
      return List.of(p);
    }
    ImmutableList.Builder<PodSet> out = ImmutableList.builder();
    for (SubGroupNode child : ((SubGroupSet) node).children()) {
      out.addAll(podSets(child));
    }
    return out.build();
  }
}
