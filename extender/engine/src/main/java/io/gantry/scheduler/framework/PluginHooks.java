package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The enabled plugins of a session, sorted into per-hook lists once, with each hook's combination
 * rule (kai-reference §4.3) in one place: ordering hooks — first non-zero wins, then a fixed
 * fallback; predicates — all must pass; node and GPU scores — summed; capacity and eviction
 * eligibility — first plugin only; victim filters and scenario validators — all must pass; reclaim
 * ceilings — the smallest; scenario generators — each, in plugin order; listeners and session-open
 * hooks — all, in plugin order; node subsetters — each splits every set the previous one returned;
 * claim allocations — first plugin only.
 */
public final class PluginHooks {
  private final ImmutableList<Plugin> plugins;
  private final ImmutableList<SessionOpenHook> sessionOpen;
  private final ImmutableList<JobOrder> jobOrder;
  private final ImmutableList<TaskOrder> taskOrder;
  private final ImmutableList<SubGroupOrder> subGroupOrder;
  private final ImmutableList<QueueOrder> queueOrder;
  private final ImmutableList<NodePredicate> predicates;
  private final ImmutableList<NodeScorer> nodeScorers;
  private final ImmutableList<GpuScorer> gpuScorers;
  private final Optional<CapacityPolicy> capacity;
  private final ImmutableList<AllocationListener> listeners;
  private final Optional<ClaimAllocationSource> claimAllocations;
  private final Optional<EvictionEligibility> evictionEligibility;
  private final ImmutableList<VictimFilter> victimFilters;
  private final ImmutableList<ScenarioValidator> scenarioValidators;
  private final ImmutableList<ReclaimCeiling> reclaimCeilings;
  private final ImmutableList<ScenarioGenerator> scenarioGenerators;
  private final ImmutableList<VictimQueueOrder> victimQueueOrder;
  private final ImmutableList<VictimInvariantPredicate> invariantPredicates;
  private final ImmutableList<NodeSubsetter> subsetters;

  /** {@code plugins} in priority order, highest first. */
  public PluginHooks(List<Plugin> plugins) {
    this.plugins = ImmutableList.copyOf(plugins);
    this.sessionOpen = only(plugins, SessionOpenHook.class);
    this.jobOrder = only(plugins, JobOrder.class);
    this.taskOrder = only(plugins, TaskOrder.class);
    this.subGroupOrder = only(plugins, SubGroupOrder.class);
    this.queueOrder = only(plugins, QueueOrder.class);
    this.predicates = only(plugins, NodePredicate.class);
    this.nodeScorers = only(plugins, NodeScorer.class);
    this.gpuScorers = only(plugins, GpuScorer.class);
    this.capacity = only(plugins, CapacityPolicy.class).stream().findFirst();
    this.listeners = only(plugins, AllocationListener.class);
    this.claimAllocations = only(plugins, ClaimAllocationSource.class).stream().findFirst();
    this.evictionEligibility = only(plugins, EvictionEligibility.class).stream().findFirst();
    this.victimFilters = only(plugins, VictimFilter.class);
    this.scenarioValidators = only(plugins, ScenarioValidator.class);
    this.reclaimCeilings = only(plugins, ReclaimCeiling.class);
    this.scenarioGenerators = only(plugins, ScenarioGenerator.class);
    this.victimQueueOrder = only(plugins, VictimQueueOrder.class);
    this.invariantPredicates = only(plugins, VictimInvariantPredicate.class);
    this.subsetters = only(plugins, NodeSubsetter.class);
  }

  public ImmutableList<Plugin> plugins() {
    return plugins;
  }

  void openSession(SessionView session, ActionObserver observer) {
    for (SessionOpenHook hook : sessionOpen) {
      String plugin = hook.name();
      observer.pluginOpenStarted(plugin);
      hook.onSessionOpen(session);
      observer.pluginOpenFinished(plugin);
    }
  }

  /** Fallback: older job first, then source order (KAI: creation time, then UID). */
  public int compareJobs(JobState a, JobState b) {
    // indexed: a leaf's sort and the queue heaps call this and compareQueues millions of times a
    // cycle, and an iterator each is garbage the JIT does not always remove
    for (int i = 0; i < jobOrder.size(); i++) {
      int c = jobOrder.get(i).compareJobs(a, b);
      if (c != 0) {
        return c;
      }
    }
    return byCreation(a, b);
  }

  /**
   * {@link #compareJobs} for victim jobs of which only the tasks {@code leftA} and {@code leftB}
   * accept are still to be taken (kai-reference §4.11).
   */
  public int compareVictimJobs(
      JobState a, Predicate<TaskState> leftA, JobState b, Predicate<TaskState> leftB) {
    for (JobOrder p : jobOrder) {
      int c = p.compareVictimJobs(a, leftA, b, leftB);
      if (c != 0) {
        return c;
      }
    }
    return byCreation(a, b);
  }

  private static int byCreation(JobState a, JobState b) {
    int c = a.info().createdAt().compareTo(b.info().createdAt());
    return c != 0 ? c : Long.compare(a.info().creationOrder(), b.info().creationOrder());
  }

  /** Fallback: pod creation order. */
  public int compareTasks(TaskState a, TaskState b) {
    for (TaskOrder p : taskOrder) {
      int c = p.compareTasks(a, b);
      if (c != 0) {
        return c;
      }
    }
    return Long.compare(a.info().creationOrder(), b.info().creationOrder());
  }

  /** Fallback: SubGroup name. */
  public int compareSubGroups(SubGroupProgress a, SubGroupProgress b) {
    for (SubGroupOrder p : subGroupOrder) {
      int c = p.compareSubGroups(a, b);
      if (c != 0) {
        return c;
      }
    }
    return a.node().name().compareTo(b.node().name());
  }

  /** No fallback here: the queue order plugin ends with creation order itself. */
  public int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB) {
    for (int i = 0; i < queueOrder.size(); i++) {
      int c = queueOrder.get(i).compareQueues(queueA, jobA, queueB, jobB);
      if (c != 0) {
        return c;
      }
    }
    return queueA.compareTo(queueB);
  }

  /** Every predicate reads only the node's {@link NodeClass} for this task. */
  public boolean filterReadsOnlyNodeClass(TaskState task) {
    for (NodePredicate p : predicates) {
      if (!p.readsOnlyNodeClass(task)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The victim queue's order between two sibling queues: the queue order with each queue's
   * allocation less what was already chosen from it. Fallback: queue name.
   */
  public int compareVictimQueues(
      String queueA,
      JobState jobA,
      Resources removedA,
      String queueB,
      JobState jobB,
      Resources removedB) {
    for (VictimQueueOrder p : victimQueueOrder) {
      int c = p.compareVictimQueues(queueA, jobA, removedA, queueB, jobB, removedB);
      if (c != 0) {
        return c;
      }
    }
    return queueA.compareTo(queueB);
  }

  /** KAI's CanReclaimResources; true when no plugin decides it. */
  public boolean canReclaimResources(JobState reclaimer) {
    return evictionEligibility.map(e -> e.canReclaimResources(reclaimer)).orElse(true);
  }

  /** KAI's IsNonPreemptibleJobOverQueueQuota; false when no plugin decides it. */
  public boolean nonPreemptibleOverQuota(JobState job, List<TaskState> tasks) {
    return evictionEligibility.map(e -> e.nonPreemptibleOverQuota(job, tasks)).orElse(false);
  }

  /** Every victim filter admits the victim. */
  public boolean admitsVictim(ActionType action, JobState preemptor, JobState victim) {
    for (VictimFilter f : victimFilters) {
      if (!f.admitsVictim(action, preemptor, victim)) {
        return false;
      }
    }
    return true;
  }

  public void onJobSolutionStart(ActionType action, JobState preemptor) {
    for (ScenarioValidator v : scenarioValidators) {
      v.onJobSolutionStart(action, preemptor);
    }
  }

  /** Every scenario validator accepts the scenario. */
  public boolean validScenario(ActionType action, EvictionScenario scenario) {
    for (ScenarioValidator v : scenarioValidators) {
      if (!v.validScenario(action, scenario)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The most of the given victim GPUs any reclaim scenario every validator accepts could take: the
   * smallest plugin bound, or all of them when no plugin bounds reclaim.
   */
  public double reclaimableGpus(
      JobState reclaimer, Map<String, ReclaimCeiling.VictimGpus> victimsByQueue) {
    double all = 0;
    for (ReclaimCeiling.VictimGpus v : victimsByQueue.values()) {
      all += v.gpus();
    }
    double bound = all;
    for (ReclaimCeiling c : reclaimCeilings) {
      bound = Math.min(bound, c.reclaimableGpus(reclaimer, victimsByQueue));
    }
    return bound;
  }

  /** The enabled scenario generators, in plugin order. */
  public ImmutableList<ScenarioGenerator> scenarioGenerators() {
    return scenarioGenerators;
  }

  /** The victim-invariant part of every predicate; the first failure is returned. */
  public FitStatus filterVictimInvariant(TaskState task, NodeState node) {
    for (VictimInvariantPredicate p : invariantPredicates) {
      FitStatus status = p.filterVictimInvariant(task, node);
      if (!status.isSuccess()) {
        return status;
      }
    }
    return FitStatus.SUCCESS;
  }

  public FitStatus filter(TaskState task, NodeState node) {
    for (int i = 0; i < predicates.size(); i++) {
      FitStatus status = predicates.get(i).filter(task, node);
      if (!status.isSuccess()) {
        return status;
      }
    }
    return FitStatus.SUCCESS;
  }

  public void preOrderNodes(TaskState task, List<NodeState> candidates) {
    for (NodeScorer s : nodeScorers) {
      s.preOrder(task, candidates);
    }
  }

  /**
   * How the summed node score orders nodes for this task in the node index's terms (see {@link
   * IndexOrderedScorer}): empty when some scorer does not follow an index order, or when not
   * exactly one scorer orders by a free resource.
   */
  public Optional<IndexOrder> indexOrder(TaskState task) {
    IndexOrder.Key key = null;
    boolean sharedFirst = false;
    boolean idleFirst = false;
    boolean oneDomainFirst = false;
    boolean cpuOnlyFirst = false;
    for (NodeScorer s : nodeScorers) {
      if (!(s instanceof IndexOrderedScorer ordered)) {
        return Optional.empty();
      }
      IndexOrder.Key by = null;
      switch (ordered.orderFor(task)) {
        case NONE -> {
          return Optional.empty();
        }
        case CONSTANT -> {}
        case FEWER_FREE_GPUS_FIRST -> by = IndexOrder.Key.WHOLE_GPUS;
        case FEWER_FREE_CPU_FIRST -> by = IndexOrder.Key.CPU;
        case IDLE_FIT_FIRST -> idleFirst = true;
        case SHARED_GPU_FIT_FIRST -> sharedFirst = true;
        case ONE_DOMAIN_FIT_FIRST -> oneDomainFirst = true;
        case CPU_ONLY_NODES_FIRST -> cpuOnlyFirst = true;
      }
      if (by != null) {
        if (key != null) {
          return Optional.empty();
        }
        key = by;
      }
    }
    return key == null
        ? Optional.empty()
        : Optional.of(new IndexOrder(key, sharedFirst, idleFirst, oneDomainFirst, cpuOnlyFirst));
  }

  /**
   * The grouping the summed node score follows for this task: that of the one {@link GroupedScorer}
   * that has one for it, when every other scorer orders nodes by what such a grouping's key tells
   * apart (a constant, or a bonus tier; not bin-packing by a free resource). Empty otherwise.
   */
  public Optional<NodeGrouping<?>> nodeGrouping(TaskState task) {
    NodeGrouping<?> grouping = null;
    for (NodeScorer s : nodeScorers) {
      if (s instanceof GroupedScorer grouped) {
        Optional<NodeGrouping<?>> by = grouped.groupingFor(task);
        if (by.isEmpty() || grouping != null) {
          return Optional.empty();
        }
        grouping = by.get();
      } else if (!(s instanceof IndexOrderedScorer ordered) || !readsOnlyGroupKey(ordered, task)) {
        return Optional.empty();
      }
    }
    return Optional.ofNullable(grouping);
  }

  private static boolean readsOnlyGroupKey(IndexOrderedScorer scorer, TaskState task) {
    return switch (scorer.orderFor(task)) {
      case NONE, FEWER_FREE_GPUS_FIRST, FEWER_FREE_CPU_FIRST -> false;
      case CONSTANT,
          IDLE_FIT_FIRST,
          SHARED_GPU_FIT_FIRST,
          CPU_ONLY_NODES_FIRST,
          ONE_DOMAIN_FIT_FIRST ->
          true;
    };
  }

  public double scoreNode(TaskState task, NodeState node) {
    // indexed, as compareJobs: asked for every group or node a task is scored on
    double sum = 0;
    for (int i = 0; i < nodeScorers.size(); i++) {
      sum += nodeScorers.get(i).score(task, node);
    }
    return sum;
  }

  public double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate) {
    double sum = 0;
    for (int i = 0; i < gpuScorers.size(); i++) {
      sum += gpuScorers.get(i).scoreGpu(task, node, candidate);
    }
    return sum;
  }

  /** Whether any plugin splits node sets; without one every group uses every node. */
  public boolean subsetsNodes() {
    return !subsetters.isEmpty();
  }

  /**
   * The candidate node sets for the group's pods: each subsetter splits every set the previous one
   * returned, in order; the first error ends the split.
   */
  public NodeSubsets subsetNodes(
      JobState job, SubGroupNode group, List<TaskState> tasks, NodeSubset current) {
    ImmutableList<NodeSubset> sets = ImmutableList.of(current);
    for (NodeSubsetter s : subsetters) {
      ImmutableList.Builder<NodeSubset> next = ImmutableList.builder();
      for (NodeSubset set : sets) {
        NodeSubsets split = s.subsetNodes(job, group, tasks, set);
        if (split.failed()) {
          return split;
        }
        next.addAll(split.candidates());
      }
      sets = next.build();
    }
    return NodeSubsets.of(sets);
  }

  public Optional<CapacityExceeded> checkJobCapacity(JobState job, List<TaskState> tasks) {
    return capacity.flatMap(c -> c.checkJob(job, tasks));
  }

  public Optional<CapacityExceeded> checkTaskCapacityOnNode(
      TaskState task, NodeState node, GpuAmount gpus) {
    return capacity.flatMap(c -> c.checkTaskOnNode(task, node, gpus));
  }

  // indexed, here and below: once per placement and undo, where an iterator is all the garbage
  void notifyAllocate(TaskState task, GpuAmount gpus) {
    for (int i = 0; i < listeners.size(); i++) {
      listeners.get(i).onAllocate(task, gpus);
    }
  }

  void notifyDeallocate(TaskState task, GpuAmount gpus) {
    for (int i = 0; i < listeners.size(); i++) {
      listeners.get(i).onDeallocate(task, gpus);
    }
  }

  /** The DRA claim allocations the task holds; none when no plugin allocates claims. */
  ImmutableList<ClaimAllocation> claimAllocations(TaskState task) {
    return claimAllocations.map(c -> c.claimAllocations(task)).orElse(ImmutableList.of());
  }

  private static <T> ImmutableList<T> only(List<Plugin> plugins, Class<T> hook) {
    ImmutableList.Builder<T> b = ImmutableList.builder();
    for (Plugin p : plugins) {
      if (hook.isInstance(p)) {
        b.add(hook.cast(p));
      }
    }
    return b.build();
  }
}
