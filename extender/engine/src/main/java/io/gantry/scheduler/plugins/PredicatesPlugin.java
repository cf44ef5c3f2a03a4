package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodePredicate;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.plugins.predicates.NodeAffinityRule;
import io.gantry.scheduler.plugins.predicates.PlacedPodsView;
import io.gantry.scheduler.plugins.predicates.PodAffinityFailure;
import io.gantry.scheduler.plugins.predicates.PodAffinityRule;
import io.gantry.scheduler.plugins.predicates.PredicateMessages;
import io.gantry.scheduler.plugins.predicates.PreparedPodAffinity;
import io.gantry.scheduler.plugins.predicates.TaintTolerationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes node filters KAI runs as its predicates plugin: node readiness and cordon, max pods,
 * nodeSelector and required node affinity, taints and tolerations, and required inter-pod affinity
 * and anti-affinity. Resource fit is the allocate action's own check.
 */
public final class PredicatesPlugin implements SessionOpenHook, NodePredicate {
  public static final String NAME = "predicates";

  private static final Taint UNSCHEDULABLE_TAINT =
      new Taint("node.kubernetes.io/unschedulable", "", TaintEffect.NO_SCHEDULE);

  private Session session;
  private boolean anyAntiAffinity;
  private String cachedTaskId;
  private long cachedVersion = -1;
  private PreparedPodAffinity cachedAffinity;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session) {
    this.session = session;
    this.anyAntiAffinity =
        session.jobs().stream()
            .flatMap(j -> j.tasks().stream())
            .anyMatch(t -> !t.info().placement().affinity().requiredPodAntiAffinity().isEmpty());
  }

  @Override
  public FitStatus filter(TaskState task, NodeState node) {
    TaskInfo info = task.info();
    if (!node.info().ready()) {
      return FitStatus.unschedulable(NAME, PredicateMessages.NODE_NOT_READY);
    }
    List<Toleration> tolerations = info.placement().tolerations();
    if (node.info().unschedulable()
        && tolerations.stream().noneMatch(t -> t.tolerates(UNSCHEDULABLE_TAINT))) {
      return FitStatus.unschedulable(NAME, PredicateMessages.NODE_UNSCHEDULABLE);
    }
    if (node.freePodSlots() < 1) {
      return FitStatus.unschedulable(NAME, PredicateMessages.POD_NUMBER_EXCEEDED);
    }
    if (!NodeAffinityRule.matches(info.placement(), node.info().labels(), node.name())) {
      return FitStatus.unschedulable(NAME, PredicateMessages.NODE_AFFINITY_MISMATCH);
    }
    Optional<Taint> taint = TaintTolerationRule.firstUntolerated(node.info().taints(), tolerations);
    if (taint.isPresent()) {
      return FitStatus.unschedulable(NAME, PredicateMessages.untoleratedTaint(taint.get()));
    }
    Optional<PodAffinityFailure> affinity = podAffinity(task).check(node.info().labels());
    if (affinity.isPresent()) {
      return FitStatus.unschedulable(NAME, affinity.get().message());
    }
    return FitStatus.SUCCESS;
  }

  /** Prepared once per task and placement state, so the pod scan is not repeated per node. */
  private PreparedPodAffinity podAffinity(TaskState task) {
    if (task.id().equals(cachedTaskId) && session.placementVersion() == cachedVersion) {
      return cachedAffinity;
    }
    TaskInfo info = task.info();
    PlacedPodsView view =
        needsPods(info) ? new SessionPods(session, task.id()) : EmptyPods.INSTANCE;
    cachedAffinity =
        PodAffinityRule.prepare(info.namespace(), info.labels(), info.placement().affinity(), view);
    cachedTaskId = task.id();
    cachedVersion = session.placementVersion();
    return cachedAffinity;
  }

  private boolean needsPods(TaskInfo info) {
    return anyAntiAffinity || !info.placement().affinity().requiredPodAffinity().isEmpty();
  }

  private enum EmptyPods implements PlacedPodsView {
    INSTANCE;

    @Override
    public Iterable<PlacedPod> placedPods() {
      return List.of();
    }

    @Override
    public Map<String, String> nodeLabels(String nodeName) {
      return Map.of();
    }
  }

  /** The pods that hold or will hold a node in this session, except the incoming one. */
  private static final class SessionPods implements PlacedPodsView {
    private final Session session;
    private final String excludedTaskId;

    SessionPods(Session session, String excludedTaskId) {
      this.session = session;
      this.excludedTaskId = excludedTaskId;
    }

    @Override
    public Iterable<PlacedPod> placedPods() {
      List<PlacedPod> pods = new ArrayList<>();
      for (JobState job : session.jobs()) {
        for (TaskState t : job.tasks()) {
          if (t.id().equals(excludedTaskId) || t.nodeName().isEmpty()) {
            continue;
          }
          if (!t.status().isActiveUsed()) {
            continue;
          }
          TaskInfo i = t.info();
          pods.add(
              new PlacedPod(
                  i.namespace(),
                  i.name(),
                  i.labels(),
                  t.nodeName().get(),
                  ImmutableList.copyOf(i.placement().affinity().requiredPodAntiAffinity())));
        }
      }
      return pods;
    }

    @Override
    public Map<String, String> nodeLabels(String nodeName) {
      return session
          .findNode(nodeName)
          .<Map<String, String>>map(n -> n.info().labels())
          .orElse(Map.of());
    }
  }
}
