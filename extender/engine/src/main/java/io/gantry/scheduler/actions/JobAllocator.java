package io.gantry.scheduler.actions;

import static com.google.common.base.Preconditions.checkState;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.IndexOrder;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeIndex;
import io.gantry.scheduler.framework.NodeResourceTypeRule;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.NodeSubset;
import io.gantry.scheduler.framework.NodeSubsets;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskShape;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.framework.fit.GangIncomplete;
import io.gantry.scheduler.framework.fit.GpuMemoryNotSynced;
import io.gantry.scheduler.framework.fit.GpuMemoryTooSmall;
import io.gantry.scheduler.framework.fit.InsufficientExtendedResource;
import io.gantry.scheduler.framework.fit.InsufficientResource;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.framework.fit.PodResourcesNotFound;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import io.gantry.scheduler.framework.fit.SharedGpusUnavailable;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Places one pass of a job inside a statement (kai-reference §4.6 steps 2–5): queue capacity for
 * the whole pass, then each task on the best-scoring node that passes every check, allocated when
 * it fits in idle resources and pipelined when it needs releasing ones. All or nothing: on the
 * first task that fits nowhere the caller discards the statement.
 */
final class JobAllocator {
  private final Session session;
  private final PluginHooks hooks;
  private final TasksToAllocate tasksToAllocate;
  private final boolean baseline;
  private final IndexedNodeSearch indexSearch;

  /**
   * Why tasks of a shape fit nowhere, valid while the session's placement version is {@link
   * #failuresVersion}: nothing a node check reads has changed, so an equal task fails the same way.
   * Looked up, never iterated.
   */
  private final Map<TaskShape, NoNodeFits> failures = new HashMap<>();

  private long failuresVersion = -1;

  JobAllocator(Session session) {
    this.session = session;
    this.hooks = session.hooks();
    this.tasksToAllocate = new TasksToAllocate(hooks);
    this.baseline = session.strategy() == SearchStrategy.BASELINE;
    this.indexSearch =
        new IndexedNodeSearch(session.nodeIndex(), (task, node) -> unfit(task, node).isEmpty());
  }

  /** True when every task of the pass was placed; fit errors are recorded otherwise. */
  boolean allocate(JobState job, Statement statement) {
    return allocate(job, tasksToAllocate.of(job), statement, false);
  }

  /**
   * Places exactly {@code tasks} of the job as a victim search simulates it (KAI's pipeline-only
   * allocation): every task is pipelined, even where it fits in idle resources, and no fit error is
   * recorded. True when every task was placed; the caller rolls back otherwise.
   */
  boolean simulate(JobState job, List<TaskState> tasks, Statement statement) {
    return allocate(job, tasks, statement, true);
  }

  private boolean allocate(
      JobState job, List<TaskState> tasks, Statement statement, boolean pipelineOnly) {
    if (tasks.isEmpty()) {
      return false;
    }
    Optional<CapacityExceeded> overCapacity = hooks.checkJobCapacity(job, tasks);
    if (overCapacity.isPresent()) {
      if (!pipelineOnly) {
        session.recordJobFitError(job, overCapacity.get());
      }
      return false;
    }
    NodeSubset everyNode = NodeSubset.everyNode(session.nodes());
    boolean placed =
        (hooks.subsetsNodes() && job.info().root().constrainedAnywhere())
            ? placeGroup(job, job.info().root(), tasks, everyNode, statement, pipelineOnly, true)
            : placeAll(job, tasks, everyNode, statement, pipelineOnly, !pipelineOnly);
    if (!placed) {
      return false;
    }
    boolean pipelined = tasks.stream().anyMatch(t -> t.status() == TaskStatus.PIPELINED);
    if (pipelined && !gangSatisfiedWithoutPipelined(job)) {
      statement.convertAllocationsToPipelined();
    }
    return true;
  }

  /**
   * Places the group's tasks of this pass on one of the candidate node sets the subsetters make of
   * {@code scope} (kai-reference §4.6 step 3): each set in turn, from a checkpoint, rolled back
   * when some task fits nowhere in it. A SubGroupSet places each child that has tasks the same way,
   * in the order of the pass, inside the set. Fit errors are recorded for the last set tried only.
   */
  private boolean placeGroup(
      JobState job,
      SubGroupNode group,
      List<TaskState> tasks,
      NodeSubset scope,
      Statement statement,
      boolean pipelineOnly,
      boolean record) {
    NodeSubsets subsets = hooks.subsetNodes(job, group, tasks, scope);
    if (subsets.error().isPresent()) {
      if (record && !pipelineOnly) {
        session.recordJobFitError(job, subsets.error().get());
      }
      return false;
    }
    List<NodeSubset> candidates = subsets.candidates();
    for (int i = 0; i < candidates.size(); i++) {
      boolean last = i == candidates.size() - 1;
      Statement.Checkpoint checkpoint = statement.checkpoint();
      boolean placed =
          group instanceof SubGroupSet set
              ? placeChildren(
                  job, set, tasks, candidates.get(i), statement, pipelineOnly, record && last)
              : placeAll(job, tasks, candidates.get(i), statement, pipelineOnly, record && last);
      if (placed) {
        return true;
      }
      statement.rollback(checkpoint);
    }
    return false;
  }

  private boolean placeChildren(
      JobState job,
      SubGroupSet set,
      List<TaskState> tasks,
      NodeSubset scope,
      Statement statement,
      boolean pipelineOnly,
      boolean record) {
    Map<SubGroupNode, List<TaskState>> byChild = new LinkedHashMap<>();
    for (TaskState task : tasks) {
      byChild
          .computeIfAbsent(childHolding(set, task.info().podSetName()), c -> new ArrayList<>())
          .add(task);
    }
    for (Map.Entry<SubGroupNode, List<TaskState>> e : byChild.entrySet()) {
      if (!placeGroup(job, e.getKey(), e.getValue(), scope, statement, pipelineOnly, record)) {
        return false;
      }
    }
    return true;
  }

  /** The direct child of {@code set} whose subtree holds the PodSet. */
  private static SubGroupNode childHolding(SubGroupSet set, String podSet) {
    for (SubGroupNode child : set.children()) {
      if (holds(child, podSet)) {
        return child;
      }
    }
    throw new IllegalStateException("no SubGroup of " + set.name() + " holds PodSet " + podSet);
  }

  private static boolean holds(SubGroupNode node, String podSet) {
    if (node instanceof PodSet p) {
      return p.name().equals(podSet);
    }
    for (SubGroupNode child : ((SubGroupSet) node).children()) {
      if (holds(child, podSet)) {
        return true;
      }
    }
    return false;
  }

  /** Places every task inside {@code scope}; on the first that fits nowhere, false. */
  private boolean placeAll(
      JobState job,
      List<TaskState> tasks,
      NodeSubset scope,
      Statement statement,
      boolean pipelineOnly,
      boolean record) {
    for (TaskState task : tasks) {
      Optional<NoNodeFits> failure = place(task, scope, statement, pipelineOnly);
      if (failure.isPresent()) {
        if (record) {
          PodSchedulingFailure error = failure(job, task, failure.get());
          session.recordTaskFitError(task, error);
          session.recordJobFitError(job, error);
        }
        return false;
      }
    }
    return true;
  }

  /** Places the task inside {@code scope}, or says why no node there took it. */
  private Optional<NoNodeFits> place(
      TaskState task, NodeSubset scope, Statement statement, boolean pipelineOnly) {
    if (!scope.everyNode()) {
      RejectionTally rejections = new RejectionTally();
      NodeState best = bestFit(task, scope, rejections);
      if (best == null) {
        return Optional.of(rejections.build(scope.nodes().size()));
      }
      commit(task, best, statement, pipelineOnly);
      return Optional.empty();
    }
    Optional<NoNodeFits> known = knownFailure(task);
    if (known.isPresent()) {
      return known;
    }
    Optional<IndexOrder> order =
        baseline
            ? Optional.empty()
            : hooks.indexOrder(task).filter(o -> IndexedNodeSearch.covers(task, o));
    NodeState best = order.flatMap(o -> indexSearch.find(task, o)).orElse(null);
    if (best == null) {
      List<NodeState> nodes = session.nodes();
      RejectionTally rejections = new RejectionTally();
      if (order.isPresent() && hooks.filterReadsOnlyNodeClass(task)) {
        // the index reached every node that could fit and none did: one node per class says why
        for (NodeIndex.ClassMembers c : session.nodeIndex().nodeClasses()) {
          ImmutableList<NodeFitReason> reasons = unfit(task, c.first());
          checkState(!reasons.isEmpty(), "%s fits but the index passed it", c.first().name());
          rejections.add(c.first(), reasons, c.size());
        }
      } else {
        best =
            baseline
                ? firstFitInScoreOrder(task, nodes, rejections)
                : bestFit(task, scope, rejections);
      }
      if (best == null) {
        NoNodeFits failure = rejections.build(nodes.size());
        rememberFailure(task, failure);
        return Optional.of(failure);
      }
    }
    commit(task, best, statement, pipelineOnly);
    return Optional.empty();
  }

  /** Allocates the task on the node when it fits in idle resources now, pipelines it otherwise. */
  private void commit(TaskState task, NodeState best, Statement statement, boolean pipelineOnly) {
    boolean idleNow = GpuFit.fitsIdleNow(task, best);
    List<String> groups = List.of();
    GpuAmount portion = GpuAmount.ZERO;
    if (task.info().isShared()) {
      GpuFit.Selection selection = GpuFit.select(task, best, hooks).orElseThrow();
      groups = selection.gpuGroups();
      portion = selection.portion();
      idleNow = idleNow && selection.idleNow();
    }
    if (idleNow && !pipelineOnly) {
      statement.allocate(task, best, groups, portion);
    } else {
      statement.pipeline(task, best, groups, portion);
    }
  }

  /** How an equal task failed at this placement version, if one did. */
  private Optional<NoNodeFits> knownFailure(TaskState task) {
    if (baseline || failuresVersion != session.placementVersion()) {
      return Optional.empty();
    }
    return Optional.ofNullable(failures.get(TaskShape.of(task)));
  }

  private void rememberFailure(TaskState task, NoNodeFits failure) {
    if (baseline) {
      return;
    }
    if (failuresVersion != session.placementVersion()) {
      failures.clear();
      failuresVersion = session.placementVersion();
    }
    failures.put(TaskShape.of(task), failure);
  }

  /**
   * The highest-scoring node of the scope that fits (the first in node order among equals), with
   * the scope's own node scores added, or null. Scorers are prepared (over the scope's nodes) only
   * when some node fits.
   */
  private NodeState bestFit(TaskState task, NodeSubset scope, RejectionTally rejections) {
    List<NodeState> nodes = scope.nodes();
    List<NodeState> fitting = new ArrayList<>();
    for (NodeState node : nodes) {
      ImmutableList<NodeFitReason> reasons = unfit(task, node);
      if (reasons.isEmpty()) {
        fitting.add(node);
      } else {
        rejections.add(node, reasons, 1);
      }
    }
    if (fitting.isEmpty()) {
      return null;
    }
    hooks.preOrderNodes(task, nodes);
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeState node : fitting) {
      double score = hooks.scoreNode(task, node) + scope.score(node);
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }

  private record ScoredNode(NodeState node, double score) {}

  /**
   * The benchmarking baseline ({@link SearchStrategy#BASELINE}), KAI's straightforward way: score
   * every node, sort by score (highest first, then node name), take the first that fits. The
   * snapshot lists nodes by name, so this is the node {@link #bestFit} picks.
   */
  private NodeState firstFitInScoreOrder(
      TaskState task, List<NodeState> nodes, RejectionTally rejections) {
    hooks.preOrderNodes(task, nodes);
    List<ScoredNode> scored = new ArrayList<>(nodes.size());
    for (NodeState node : nodes) {
      scored.add(new ScoredNode(node, hooks.scoreNode(task, node)));
    }
    scored.sort(
        Comparator.comparingDouble(ScoredNode::score)
            .reversed()
            .thenComparing(s -> s.node().name()));
    for (ScoredNode s : scored) {
      ImmutableList<NodeFitReason> reasons = unfit(task, s.node());
      if (reasons.isEmpty()) {
        return s.node();
      }
      rejections.add(s.node(), reasons, 1);
    }
    return null;
  }

  /** Why the node cannot take the task; empty when it can. */
  private ImmutableList<NodeFitReason> unfit(TaskState task, NodeState node) {
    FitStatus predicates = hooks.filter(task, node);
    if (!predicates.isSuccess()) {
      return predicates.reasons();
    }
    Optional<NodeFitReason> resources = insufficientResource(task, node);
    if (resources.isPresent()) {
      return ImmutableList.of(resources.get());
    }
    Optional<CapacityExceeded> capacity =
        hooks.checkTaskCapacityOnNode(task, node, GpuFit.quotaGpusOn(task, node));
    if (capacity.isPresent()) {
      return ImmutableList.of(capacity.get());
    }
    // KAI checks the kind of GPU after resources and capacity (its predicates plugin)
    return NodeResourceTypeRule.mismatch(task.info(), node)
        .<ImmutableList<NodeFitReason>>map(ImmutableList::of)
        .orElse(ImmutableList.of());
  }

  private Optional<NodeFitReason> insufficientResource(TaskState task, NodeState node) {
    Resources request = task.info().request();
    Resources free = node.idleOrReleasing();
    for (ResourceKind kind : ResourceKind.values()) {
      if (kind.of(request) > kind.of(free)) {
        return Optional.of(new InsufficientResource(kind, kind.of(request), kind.of(free)));
      }
    }
    for (var e : request.extended().entrySet()) {
      if (e.getValue() > free.extended(e.getKey())) {
        return Optional.of(
            new InsufficientExtendedResource(e.getKey(), e.getValue(), free.extended(e.getKey())));
      }
    }
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isPresent()) {
      if (sharing.get().byMemory() && !node.info().gpuMemorySynced()) {
        return Optional.of(new GpuMemoryNotSynced());
      }
      if (!GpuFit.fitsDevice(task, node)) {
        return Optional.of(
            new GpuMemoryTooSmall(
                sharing.get().memoryMib().orElseThrow(),
                GpuSharingRequest.deviceMemoryMib(node.info().gpuMemoryMib())));
      }
      if (GpuFit.select(task, node, hooks).isEmpty()) {
        return Optional.of(
            new SharedGpusUnavailable(sharing.get().numDevices(), GpuFit.portionOn(task, node)));
      }
    }
    return Optional.empty();
  }

  private static PodSchedulingFailure failure(JobState job, TaskState task, NoNodeFits nodes) {
    PodSet podSet =
        job.podSets().stream()
            .filter(p -> p.name().equals(task.info().podSetName()))
            .findFirst()
            .orElseThrow();
    long placed = job.count(podSet, TaskStatus::isActiveAllocated);
    if (podSet.minMember() > 1 && placed < podSet.minMember()) {
      return new GangIncomplete(placed, podSet.minMember(), nodes);
    }
    return new PodResourcesNotFound(task.info().namespace(), task.info().podName(), nodes);
  }

  /** The job's gang is satisfied by tasks that are allocated, not merely pipelined. */
  private boolean gangSatisfiedWithoutPipelined(JobState job) {
    return tasksToAllocate.progress(job, job.info().root(), TaskStatus::isAllocated).satisfied();
  }
}
