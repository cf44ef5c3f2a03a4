package io.gantry.scheduler.actions;

import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.JobFitError;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskShape;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
  private final Map<TaskShape, String> failures = new HashMap<>();

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
    List<TaskState> tasks = tasksToAllocate.of(job);
    if (tasks.isEmpty()) {
      return false;
    }
    Optional<JobFitError> overCapacity = hooks.checkJobCapacity(job, tasks);
    if (overCapacity.isPresent()) {
      session.recordJobFitError(job, overCapacity.get());
      return false;
    }
    boolean pipelined = false;
    for (TaskState task : tasks) {
      Optional<String> failure = place(task, statement);
      if (failure.isPresent()) {
        String message = failureMessage(job, task, failure.get());
        session.recordTaskFitError(task, message);
        session.recordJobFitError(job, new JobFitError(JobFitError.POD_SCHEDULING_ERRORS, message));
        return false;
      }
      pipelined |= task.status() == TaskStatus.PIPELINED;
    }
    if (pipelined && !gangSatisfiedWithoutPipelined(job)) {
      statement.convertAllocationsToPipelined();
    }
    return true;
  }

  /** Places the task, or says why no node took it. */
  private Optional<String> place(TaskState task, Statement statement) {
    Optional<String> known = knownFailure(task);
    if (known.isPresent()) {
      return known;
    }
    NodeState best = baseline ? null : viaIndex(task).orElse(null);
    if (best == null) {
      List<NodeState> nodes = session.nodes();
      NodeFitErrors errors = new NodeFitErrors();
      best = baseline ? firstFitInScoreOrder(task, nodes, errors) : bestFit(task, nodes, errors);
      if (best == null) {
        String message = errors.message(nodes.size());
        rememberFailure(task, message);
        return Optional.of(message);
      }
    }
    boolean idleNow = GpuFit.fitsIdleNow(task, best);
    List<String> groups = List.of();
    GpuAmount portion = GpuAmount.ZERO;
    if (task.info().isShared()) {
      GpuFit.Selection selection = GpuFit.select(task, best, hooks).orElseThrow();
      groups = selection.gpuGroups();
      portion = selection.portion();
      idleNow = idleNow && selection.idleNow();
    }
    if (idleNow) {
      statement.allocate(task, best, groups, portion);
    } else {
      statement.pipeline(task, best, groups, portion);
    }
    return Optional.empty();
  }

  /** How an equal task failed at this placement version, if one did. */
  private Optional<String> knownFailure(TaskState task) {
    if (baseline || failuresVersion != session.placementVersion()) {
      return Optional.empty();
    }
    return Optional.ofNullable(failures.get(TaskShape.of(task)));
  }

  private void rememberFailure(TaskState task, String message) {
    if (baseline) {
      return;
    }
    if (failuresVersion != session.placementVersion()) {
      failures.clear();
      failuresVersion = session.placementVersion();
    }
    failures.put(TaskShape.of(task), message);
  }

  /**
   * The highest-scoring node that fits (the first in node order among equals), or null. Scorers are
   * prepared (over every node) only when some node fits.
   */
  private NodeState bestFit(TaskState task, List<NodeState> nodes, NodeFitErrors errors) {
    List<NodeState> fitting = new ArrayList<>();
    for (NodeState node : nodes) {
      Optional<String> reason = unfit(task, node);
      if (reason.isPresent()) {
        errors.add(reason.get());
      } else {
        fitting.add(node);
      }
    }
    if (fitting.isEmpty()) {
      return null;
    }
    hooks.preOrderNodes(task, nodes);
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeState node : fitting) {
      double score = hooks.scoreNode(task, node);
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
      TaskState task, List<NodeState> nodes, NodeFitErrors errors) {
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
      Optional<String> reason = unfit(task, s.node());
      if (reason.isEmpty()) {
        return s.node();
      }
      errors.add(reason.get());
    }
    return null;
  }

  /**
   * The best node found by walking the node index when the scorers' order is one of the index's;
   * the same node the full scan would pick. Empty when the index does not apply or nothing fits,
   * and the caller scans every node (which also explains a failure).
   */
  private Optional<NodeState> viaIndex(TaskState task) {
    return hooks.indexOrder(task).flatMap(order -> indexSearch.find(task, order));
  }

  private Optional<String> unfit(TaskState task, NodeState node) {
    FitStatus predicates = hooks.filter(task, node);
    if (!predicates.isSuccess()) {
      return Optional.of(predicates.message());
    }
    Optional<String> resources = insufficientResource(task, node);
    if (resources.isPresent()) {
      return resources;
    }
    return hooks
        .checkTaskCapacityOnNode(task, node, GpuFit.quotaGpusOn(task, node))
        .map(JobFitError::message);
  }

  private Optional<String> insufficientResource(TaskState task, NodeState node) {
    Resources request = task.info().request();
    Resources free = node.idleOrReleasing();
    if (request.gpus().compareTo(free.gpus()) > 0) {
      return Optional.of("node(s) didn't have enough resources: GPUs");
    }
    if (request.cpuMillis() > free.cpuMillis()) {
      return Optional.of("node(s) didn't have enough resources: CPU cores");
    }
    if (request.memoryBytes() > free.memoryBytes()) {
      return Optional.of("node(s) didn't have enough resources: memory");
    }
    for (var e : request.extended().entrySet()) {
      if (e.getValue() > free.extended(e.getKey())) {
        return Optional.of("node(s) didn't have enough resources: " + e.getKey());
      }
    }
    if (task.info().gpuSharing().isPresent()) {
      if (task.info().gpuSharing().get().byMemory() && !node.info().gpuMemorySynced()) {
        return Optional.of("node(s) didn't have a synced GPU memory label");
      }
      if (GpuFit.select(task, node, hooks).isEmpty()) {
        return Optional.of("node(s) didn't have enough resources: shared GPUs");
      }
    }
    return Optional.empty();
  }

  private String failureMessage(JobState job, TaskState task, String nodeErrors) {
    PodSet podSet =
        job.podSets().stream()
            .filter(p -> p.name().equals(task.info().podSetName()))
            .findFirst()
            .orElseThrow();
    long placed = job.count(podSet, TaskStatus::isActiveAllocated);
    if (podSet.minMember() > 1 && placed < podSet.minMember()) {
      return FitMessages.gang(placed, podSet.minMember(), nodeErrors);
    }
    return FitMessages.pod(task.info().namespace(), task.info().podName(), nodeErrors);
  }

  /** Every PodSet has minMember tasks that are allocated, not merely pipelined. */
  private static boolean gangSatisfiedWithoutPipelined(JobState job) {
    for (PodSet p : job.podSets()) {
      if (job.count(p, TaskStatus::isAllocated) < p.minMember()) {
        return false;
      }
    }
    return true;
  }
}
