package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.AllocationListener;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodePredicate;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.VictimInvariantPredicate;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.framework.fit.NodeNotReady;
import io.gantry.scheduler.framework.fit.NodeUnschedulable;
import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.framework.fit.TooManyPods;
import io.gantry.scheduler.framework.fit.UntoleratedTaint;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.plugins.predicates.ComparisonCounter;
import io.gantry.scheduler.plugins.predicates.NodeAffinityRule;
import io.gantry.scheduler.plugins.predicates.PodAffinityIndex;
import io.gantry.scheduler.plugins.predicates.PreparedPodAffinity;
import io.gantry.scheduler.plugins.predicates.TaintTolerationRule;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes node filters KAI runs as its predicates plugin: node readiness and cordon, max pods,
 * nodeSelector and required node affinity, taints and tolerations, and required inter-pod affinity
 * and anti-affinity. Resource fit is the allocate action's own check.
 *
 * <p>Inter-pod affinity reads a {@link PodAffinityIndex} of the session's placed pods, built at
 * session open when any pod of the session has pod (anti-)affinity terms and kept current through
 * the allocation listener. A placement change the listener did not see (the session's placement
 * version moved past the last one seen) rebuilds the index, so the index always holds exactly the
 * pods that are bound or assumed to a node.
 */
public final class PredicatesPlugin
    implements SessionOpenHook, NodePredicate, VictimInvariantPredicate, AllocationListener {
  public static final String NAME = "predicates";

  private static final Taint UNSCHEDULABLE_TAINT =
      new Taint("node.kubernetes.io/unschedulable", "", TaintEffect.NO_SCHEDULE);

  private final ComparisonCounter comparisons;
  private SessionView session;
  private PodAffinityIndex podIndex;
  private long indexedVersion;
  private String cachedTaskId;
  private long cachedVersion = -1;
  private PreparedPodAffinity cachedAffinity;

  public PredicatesPlugin() {
    this(new ComparisonCounter());
  }

  /** {@code comparisons} counts the inter-pod affinity work of every session this plugin opens. */
  public PredicatesPlugin(ComparisonCounter comparisons) {
    this.comparisons = requireNonNull(comparisons, "comparisons is null");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session) {
    this.session = session;
    this.cachedTaskId = null;
    this.cachedAffinity = null;
    boolean anyPodAffinity =
        session.jobs().stream()
            .flatMap(j -> j.tasks().stream())
            .anyMatch(t -> hasPodAffinityTerms(t.info().placement()));
    this.podIndex = null;
    if (anyPodAffinity) {
      rebuildIndex();
    }
  }

  @Override
  public void onAllocate(TaskState task, GpuAmount gpus) {
    follow(task);
  }

  @Override
  public void onDeallocate(TaskState task, GpuAmount gpus) {
    follow(task);
  }

  /**
   * Readiness, cordon, pod slots and taints are the node's class; node selectors, node affinity and
   * inter-pod affinity (whenever any pod of the session has terms) read its name and labels.
   */
  @Override
  public boolean readsOnlyNodeClass(TaskState task) {
    PodPlacementRequirements placement = task.info().placement();
    return podIndex == null
        && placement.nodeSelector().isEmpty()
        && placement.affinity().requiredNodeTerms().isEmpty();
  }

  @Override
  public FitStatus filter(TaskState task, NodeState node) {
    FitStatus invariant = nodeChecks(task, node, true);
    if (!invariant.isSuccess()) {
      return invariant;
    }
    if (podIndex != null) {
      Optional<PodAffinityMismatch> affinity = podAffinity(task).check(node.info().labels());
      if (affinity.isPresent()) {
        return FitStatus.unschedulable(NAME, affinity.get());
      }
    }
    return FitStatus.SUCCESS;
  }

  /**
   * Readiness, cordon, nodeSelector and node affinity, taints: what no eviction changes. Max pods
   * and inter-pod affinity depend on the pods on the node, which evictions change.
   */
  @Override
  public FitStatus filterVictimInvariant(TaskState task, NodeState node) {
    return nodeChecks(task, node, false);
  }

  /** The node-level checks in KAI's order; max pods only with {@code podCount}. */
  private static FitStatus nodeChecks(TaskState task, NodeState node, boolean podCount) {
    TaskInfo info = task.info();
    if (!node.info().ready()) {
      return FitStatus.unschedulable(NAME, new NodeNotReady());
    }
    List<Toleration> tolerations = info.placement().tolerations();
    if (node.info().unschedulable()
        && tolerations.stream().noneMatch(t -> t.tolerates(UNSCHEDULABLE_TAINT))) {
      return FitStatus.unschedulable(NAME, new NodeUnschedulable());
    }
    if (podCount && node.freePodSlots() < 1) {
      return FitStatus.unschedulable(NAME, new TooManyPods(node.info().maxPods()));
    }
    Optional<NodeFitReason> nodeAffinity =
        NodeAffinityRule.mismatch(info.placement(), node.info().labels(), node.name());
    if (nodeAffinity.isPresent()) {
      return FitStatus.unschedulable(NAME, nodeAffinity.get());
    }
    Optional<Taint> taint = TaintTolerationRule.firstUntolerated(node.info().taints(), tolerations);
    if (taint.isPresent()) {
      return FitStatus.unschedulable(NAME, new UntoleratedTaint(taint.get()));
    }
    return FitStatus.SUCCESS;
  }

  /** Prepared once per task and placement state, so the index is not consulted per node. */
  private PreparedPodAffinity podAffinity(TaskState task) {
    if (session.placementVersion() != indexedVersion) {
      rebuildIndex();
    }
    if (task.id().equals(cachedTaskId) && session.placementVersion() == cachedVersion) {
      return cachedAffinity;
    }
    TaskInfo info = task.info();
    cachedAffinity =
        podIndex.prepare(task.id(), info.namespace(), info.labels(), info.placement().affinity());
    cachedTaskId = task.id();
    cachedVersion = session.placementVersion();
    return cachedAffinity;
  }

  /**
   * Brings the index in line with where the task is now. Each move raises the placement version by
   * one before its listeners run (once or twice per move); a version further ahead means moves went
   * by unseen, and the index is rebuilt.
   */
  private void follow(TaskState task) {
    if (podIndex == null) {
      return;
    }
    long version = session.placementVersion();
    if (version != indexedVersion && version != indexedVersion + 1) {
      rebuildIndex();
      return;
    }
    indexedVersion = version;
    Optional<String> indexedNode = podIndex.nodeOf(task.id());
    boolean placed = isPlaced(task);
    if (placed && indexedNode.equals(task.nodeName())) {
      return;
    }
    if (indexedNode.isPresent()) {
      podIndex.remove(task.id());
    }
    if (placed) {
      add(task);
    }
  }

  private void rebuildIndex() {
    podIndex = new PodAffinityIndex(comparisons);
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (isPlaced(task)) {
          add(task);
        }
      }
    }
    indexedVersion = session.placementVersion();
  }

  private void add(TaskState task) {
    TaskInfo info = task.info();
    String nodeName = task.nodeName().orElseThrow();
    podIndex.add(
        task.id(),
        new PlacedPod(
            info.namespace(),
            info.name(),
            info.labels(),
            nodeName,
            ImmutableList.copyOf(info.placement().affinity().requiredPodAntiAffinity())),
        session
            .findNode(nodeName)
            .<Map<String, String>>map(n -> n.info().labels())
            .orElse(Map.of()));
  }

  /** Bound or assumed to a node, as kube-scheduler's snapshot lists pods for inter-pod affinity. */
  private static boolean isPlaced(TaskState task) {
    return task.nodeName().isPresent() && task.status().isActiveUsed();
  }

  private static boolean hasPodAffinityTerms(PodPlacementRequirements placement) {
    return !placement.affinity().requiredPodAffinity().isEmpty()
        || !placement.affinity().requiredPodAntiAffinity().isEmpty();
  }
}
