package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.framework.BestFitScan;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeFinder;
import io.gantry.scheduler.framework.NodeFinding;
import io.gantry.scheduler.framework.NodeResourceTypeRule;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.NodeSubset;
import io.gantry.scheduler.framework.NodeSubsets;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.RejectionTally;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
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
  private final BestFitScan scan;
  private final NodeFinder finder;

  JobAllocator(Session session) {
    this.session = session;
    this.hooks = session.hooks();
    this.tasksToAllocate = new TasksToAllocate(hooks);
    this.scan = new BestFitScan(hooks, this::unfit);
    this.finder = session.search().finder(session, this::unfit);
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
    // the whole job, not this pass: a task pipelined by an earlier pass also waits for releases,
    // and binding a later member ahead of it would leave that member running alone (§4.6 item 5)
    if (job.count(s -> s == TaskStatus.PIPELINED) > 0 && !gangSatisfiedWithoutPipelined(job)) {
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
    if (subsets.failed()) {
      if (record && !pipelineOnly) {
        subsets.errors().forEach(e -> session.recordJobFitError(job, e));
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

  /**
   * Places the task inside {@code scope}, or says why no node there took it: the session's node
   * search looks through every node, a scan through a restricted set.
   */
  private Optional<NoNodeFits> place(
      TaskState task, NodeSubset scope, Statement statement, boolean pipelineOnly) {
    NodeFinding found = scope.everyNode() ? finder.find(task) : scanScope(task, scope);
    if (found.whyNone().isPresent()) {
      return found.whyNone();
    }
    commit(task, found.node().orElseThrow(), statement, pipelineOnly);
    return Optional.empty();
  }

  private NodeFinding scanScope(TaskState task, NodeSubset scope) {
    RejectionTally rejections = new RejectionTally();
    NodeState best = scan.bestFit(task, scope, rejections);
    return best != null
        ? NodeFinding.found(best)
        : NodeFinding.none(rejections.build(scope.nodes().size()));
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
            new SharedGpusUnavailable(
                sharing.get().numDevices(),
                GpuFit.portionOn(task, node),
                sharing.get().byMemory()));
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
