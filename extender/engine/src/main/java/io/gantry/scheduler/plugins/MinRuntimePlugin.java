package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.EvictionScenario;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.ScenarioValidator;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.VictimFilter;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * KAI's minruntime plugin (kai-reference §10.2): a job that started less than its min-runtime ago
 * (from its {@code kai.scheduler/last-start-timestamp}; a job without one is never protected) may
 * not be preempted or reclaimed. A protected job that is not elastic is no victim at all; an
 * elastic one may lose surplus pods, but no scenario may leave one of its PodSets below minMember.
 *
 * <p>Preempt reads {@code preemptMinRuntime} from the victim's leaf queue up; reclaim reads {@code
 * reclaimMinRuntime} from the victim's leaf ({@code queue}) or from the child of the lowest common
 * ancestor of reclaimer and victim on the victim's side ({@code lca}) up. The first queue that sets
 * it wins; else the plugin's default.
 */
public final class MinRuntimePlugin implements SessionOpenHook, VictimFilter, ScenarioValidator {
  public static final String NAME = "minruntime";

  private final MinRuntimeArgs args;
  private SessionView session;
  private final Map<String, QueueInfo> queues = new HashMap<>();

  public MinRuntimePlugin(MinRuntimeArgs args) {
    this.args = requireNonNull(args, "args is null");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session) {
    this.session = session;
    queues.clear();
    session.snapshot().queues().forEach(q -> queues.put(q.name(), q));
  }

  @Override
  public boolean admitsVictim(ActionType action, JobState preemptor, JobState victim) {
    if (!applies(action) || elastic(victim)) {
      return true;
    }
    return !isProtected(action, preemptor, victim);
  }

  @Override
  public void onJobSolutionStart(ActionType action, JobState preemptor) {}

  /** No protected victim is left with a PodSet below its minimum. */
  @Override
  public boolean validScenario(ActionType action, EvictionScenario scenario) {
    if (!applies(action)) {
      return true;
    }
    for (List<TaskState> victimTasks : scenario.victimsByJob()) {
      JobState victim = victimTasks.get(0).job();
      if (!isProtected(action, scenario.preemptor(), victim)) {
        continue;
      }
      for (PodSet p : victim.podSets()) {
        long left = victim.count(p, s -> s.isActiveAllocated());
        if (left < p.minMember()) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean applies(ActionType action) {
    return action == ActionType.RECLAIM || action == ActionType.PREEMPT;
  }

  /** Some PodSet holds more active pods than its minimum. */
  private static boolean elastic(JobState job) {
    for (PodSet p : job.podSets()) {
      if (job.count(p, TaskStatus::isActiveAllocated) > p.minMember()) {
        return true;
      }
    }
    return false;
  }

  private boolean isProtected(ActionType action, JobState preemptor, JobState victim) {
    Optional<Instant> started = victim.lifecycle().lastStartedAt();
    if (started.isEmpty()) {
      return false;
    }
    Duration minRuntime = minRuntime(action, preemptor, victim);
    return session.now().isBefore(started.get().plus(minRuntime));
  }

  private Duration minRuntime(ActionType action, JobState preemptor, JobState victim) {
    String victimQueue = victim.info().queue();
    if (action == ActionType.PREEMPT) {
      return firstSet(victimQueue, QueueInfo::preemptMinRuntime)
          .orElse(args.defaultPreemptMinRuntime());
    }
    String start =
        args.reclaimResolveMethod() == MinRuntimeArgs.ResolveMethod.LCA
            ? belowCommonAncestor(preemptor.info().queue(), victimQueue)
            : victimQueue;
    return firstSet(start, QueueInfo::reclaimMinRuntime).orElse(args.defaultReclaimMinRuntime());
  }

  /** The first queue from {@code start} up to the root that sets the value. */
  private Optional<Duration> firstSet(String start, Function<QueueInfo, Optional<Duration>> value) {
    QueueInfo q = queues.get(start);
    while (q != null) {
      Optional<Duration> v = value.apply(q);
      if (v.isPresent()) {
        return v;
      }
      q = q.parent().map(queues::get).orElse(null);
    }
    return Optional.empty();
  }

  /**
   * The victim-side child of the lowest common ancestor of the two leaf queues; the victim's top
   * queue when they share none.
   */
  private String belowCommonAncestor(String reclaimerQueue, String victimQueue) {
    List<String> reclaimers = rootFirst(reclaimerQueue);
    List<String> victims = rootFirst(victimQueue);
    int i = 0;
    while (i < reclaimers.size()
        && i < victims.size()
        && reclaimers.get(i).equals(victims.get(i))) {
      i++;
    }
    return victims.get(Math.min(i, victims.size() - 1));
  }

  private List<String> rootFirst(String leaf) {
    List<String> path = new ArrayList<>();
    QueueInfo q = queues.get(leaf);
    while (q != null) {
      path.add(0, q.name());
      q = q.parent().map(queues::get).orElse(null);
    }
    if (path.isEmpty()) {
      path.add(leaf);
    }
    return path;
  }
}
