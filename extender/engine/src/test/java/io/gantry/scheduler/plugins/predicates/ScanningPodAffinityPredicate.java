package io.gantry.scheduler.plugins.predicates;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodePredicate;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.plugins.PredicatesPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A stand-in for {@link PredicatesPlugin} that checks only inter-pod affinity, by scanning every
 * placed pod of the session once per task and placement version ({@link ScanningPodAffinity}), as
 * the plugin did before it kept an index. For clusters whose nodes pass every other predicate, it
 * must decide what the plugin decides.
 */
public final class ScanningPodAffinityPredicate implements SessionOpenHook, NodePredicate {
  private final ScanningPodAffinity.Comparisons comparisons = new ScanningPodAffinity.Comparisons();
  private SessionView session;
  private String cachedTaskId;
  private long cachedVersion = -1;
  private ScanningPodAffinity cached;

  @Override
  public String name() {
    return PredicatesPlugin.NAME;
  }

  /** Term-versus-pod comparisons made so far. */
  public long comparisons() {
    return comparisons.count();
  }

  @Override
  public void onSessionOpen(SessionView session) {
    this.session = session;
    this.cachedTaskId = null;
  }

  @Override
  public FitStatus filter(TaskState task, NodeState node) {
    Optional<PodAffinityMismatch> failure = scan(task).check(node.info().labels());
    return failure.isPresent()
        ? FitStatus.unschedulable(PredicatesPlugin.NAME, failure.get())
        : FitStatus.SUCCESS;
  }

  private ScanningPodAffinity scan(TaskState task) {
    if (task.id().equals(cachedTaskId) && session.placementVersion() == cachedVersion) {
      return cached;
    }
    List<PlacedPod> placed = new ArrayList<>();
    for (JobState job : session.jobs()) {
      for (TaskState t : job.tasks()) {
        if (t.id().equals(task.id()) || t.nodeName().isEmpty() || !t.status().isActiveUsed()) {
          continue;
        }
        TaskInfo i = t.info();
        placed.add(
            new PlacedPod(
                i.namespace(),
                i.name(),
                i.labels(),
                t.nodeName().get(),
                ImmutableList.copyOf(i.placement().affinity().requiredPodAntiAffinity())));
      }
    }
    TaskInfo info = task.info();
    cached =
        ScanningPodAffinity.scan(
            info.namespace(),
            info.labels(),
            info.placement().affinity(),
            placed,
            name ->
                session
                    .findNode(name)
                    .<Map<String, String>>map(n -> n.info().labels())
                    .orElse(Map.of()),
            comparisons);
    cachedTaskId = task.id();
    cachedVersion = session.placementVersion();
    return cached;
  }
}
