package io.gantry.scheduler.cycle;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.NodeOutcome;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.AllocateAttempts;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeSearch;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.dynamicresources.PublishedGpuDevices;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One scheduling cycle, the engine's single entry point: opens a session on a snapshot, runs the
 * configured actions in order, and returns what they decided and why, as values. Time is the
 * snapshot's {@link ClusterSnapshot#now()}. Built by {@link SchedulerWiring}.
 *
 * <p>Thread-safety: {@link #run} may be called from several threads at once; each call builds its
 * own session and plugin instances and shares only the stateless actions.
 */
public final class SchedulingCycle {
  private final ImmutableList<Action> actions;
  private final Supplier<PluginHooks> plugins;
  private final NodeSearch search;
  private final PublishedGpuDevices publishedGpus;

  SchedulingCycle(
      ImmutableList<Action> actions,
      Supplier<PluginHooks> plugins,
      NodeSearch search,
      PublishedGpuDevices publishedGpus) {
    this.actions = actions;
    this.plugins = plugins;
    this.search = search;
    this.publishedGpus = publishedGpus;
  }

  public CycleResult run(ClusterSnapshot snapshot) {
    return run(snapshot, CycleListener.NONE);
  }

  /** Runs the cycle, telling {@code listener} as each phase begins and ends. */
  public CycleResult run(ClusterSnapshot snapshot, CycleListener listener) {
    Session session = runActions(snapshot, listener);
    ImmutableList.Builder<CycleEvent> events = ImmutableList.builder();
    events.addAll(session.events());
    ImmutableList.Builder<JobOutcome> jobs = ImmutableList.builder();
    for (JobState job : session.jobs()) {
      Optional<String> message = FitMessages.jobMessage(job.fitErrors());
      if (message.isPresent() && job.hasPendingTasks()) {
        events.add(new CycleEvent(job.id(), "Unschedulable", message.get()));
      }
      jobs.add(new JobOutcome(job.id(), message, tasks(job, message), job.lifecycle()));
    }
    ImmutableList<QueueOutcome> queues = QueueUsage.of(session);
    session.close();
    CycleResult result =
        new CycleResult(
            ImmutableList.copyOf(session.decisions()),
            events.build(),
            jobs.build(),
            queues,
            nodes(session));
    listener.sessionClosed();
    return result;
  }

  /**
   * Runs the actions on a session of {@code snapshot} and returns what {@code inspect} reads from
   * the session before it closes: {@link Explainer}'s way to fit errors and fair shares.
   */
  <T> T inspectAfterActions(ClusterSnapshot snapshot, Function<Session, T> inspect) {
    Session session = runActions(snapshot, CycleListener.NONE);
    try {
      return inspect.apply(session);
    } finally {
      session.close();
    }
  }

  /** What {@code inspect} reads from a session of {@code snapshot} just opened: no action ran. */
  <T> T inspectAtOpen(ClusterSnapshot snapshot, Function<Session, T> inspect) {
    Session session = Session.open(snapshot, plugins.get(), search);
    try {
      return inspect.apply(session);
    } finally {
      session.close();
    }
  }

  /** An open session of {@code snapshot} after the configured actions ran on it. */
  private Session runActions(ClusterSnapshot snapshot, CycleListener listener) {
    Session session = Session.open(snapshot, plugins.get(), search, listener);
    if (listener != CycleListener.NONE) {
      String allocate = ActionType.ALLOCATE.actionName();
      session.state().write(AllocateAttempts.KEY, job -> listener.jobTried(allocate, job.id()));
    }
    listener.sessionOpened();
    for (Action action : actions) {
      String name = action.type().actionName();
      listener.actionStarted(name);
      action.execute(session);
      listener.actionFinished(name);
    }
    return session;
  }

  private static ImmutableList<TaskOutcome> tasks(JobState job, Optional<String> jobMessage) {
    ImmutableList.Builder<TaskOutcome> out = ImmutableList.builder();
    for (TaskState task : job.tasks()) {
      // a committed allocation leaves the cycle as a bind decision
      TaskStatus status =
          task.status() == TaskStatus.ALLOCATED ? TaskStatus.BINDING : task.status();
      boolean waiting = status == TaskStatus.PENDING || status == TaskStatus.GATED;
      out.add(
          new TaskOutcome(
              task.id(),
              status,
              waiting
                  ? task.fitError().map(FitMessages::sentence).or(() -> jobMessage)
                  : Optional.empty()));
    }
    return out.build();
  }

  private ImmutableList<NodeOutcome> nodes(Session session) {
    ImmutableList.Builder<NodeOutcome> out = ImmutableList.builder();
    NodeDraGpus dra = NodeDraGpus.of(session);
    ImmutableSortedMap<String, Long> draPublished =
        publishedGpus.perNode(session.snapshot().dynamicResources());
    for (NodeState n : session.nodes()) {
      int releasing = n.releasingWholeGpus();
      // device-plugin GPUs come from the node's count; DRA GPUs from the claims its pods hold,
      // and the node's own published DRA GPUs no claim of its pods holds are idle
      int draUsed = Math.toIntExact(dra.used(n.name()));
      long draIdle = Math.max(0, draPublished.getOrDefault(n.name(), 0L) - draUsed);
      int idle = n.idleWholeGpus() + Math.toIntExact(draIdle);
      ImmutableList.Builder<NodeOutcome.SharedGpuUse> groups = ImmutableList.builder();
      for (GpuGroupView g : n.gpuGroups()) {
        groups.add(new NodeOutcome.SharedGpuUse(g.id(), g.usedPortion()));
      }
      out.add(
          new NodeOutcome(
              n.name(),
              idle,
              releasing,
              n.info().gpuCount() - n.idleWholeGpus() - releasing + draUsed,
              groups.build()));
    }
    return out.build();
  }
}
