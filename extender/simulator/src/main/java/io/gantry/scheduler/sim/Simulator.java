package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.actions.ActionRegistry;
import io.gantry.scheduler.actions.FitMessages;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.BindDecision;
import io.gantry.scheduler.framework.Decision;
import io.gantry.scheduler.framework.EvictDecision;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.PipelineDecision;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.SessionEvent;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.PluginConfigException;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.plugins.ProportionPlugin;
import io.gantry.scheduler.sim.spec.ScenarioException;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Runs a scenario through the real engine, cycle by cycle in simulated time: bound tasks start
 * running the next cycle, pipelined ones are decided anew, finished and released ones leave (and
 * come back as new pods when their job replaces them), arriving jobs join.
 */
public final class Simulator {
  private final PluginRegistry registry = new PluginRegistry();

  /** Compiles and runs a loaded scenario; {@code cycles} overrides {@code config.cycles}. */
  public SimulationResult run(ScenarioSpec spec, OptionalInt cycles) throws ScenarioException {
    SimWorld world = ScenarioCompiler.compile(spec);
    int cycleCount = cycles.orElse(world.cycles());
    hooks(world, spec);
    ImmutableList<Action> actions = ActionRegistry.build(world.actions());
    List<SimulationResult.EventResult> events = new ArrayList<>();
    Instant now = world.start();
    Session last = null;
    for (int cycle = 1; cycle <= cycleCount; cycle++) {
      now = world.start().plus(world.cyclePeriod().multipliedBy(cycle - 1L));
      if (cycle > 1) {
        advance(world, now);
      }
      Session session = Session.open(snapshot(world, now), hooks(world, spec));
      for (Action action : actions) {
        action.execute(session);
      }
      apply(world, session, now);
      for (SessionEvent e : session.events()) {
        events.add(new SimulationResult.EventResult(cycle, e.object(), e.reason(), e.message()));
      }
      for (JobState job : session.jobs()) {
        Optional<String> message = FitMessages.jobMessage(job.fitErrors());
        if (message.isPresent() && job.hasPendingTasks()) {
          events.add(
              new SimulationResult.EventResult(cycle, job.id(), "Unschedulable", message.get()));
        }
      }
      last = session;
    }
    return new ResultBuilder(world, now, last).build(cycleCount, events);
  }

  private PluginHooks hooks(SimWorld world, ScenarioSpec spec) throws ScenarioException {
    try {
      return registry.build(world.plugins(), world.placement());
    } catch (PluginConfigException e) {
      int line =
          Optional.ofNullable(spec.config().plugins().get(e.plugin()))
              .map(p -> p.line())
              .orElse(spec.config().fieldLines().getOrDefault("plugins", 1));
      throw new ScenarioException(spec.sourceName(), line, "config." + e.field(), e.problem());
    }
  }

  static ClusterSnapshot snapshot(SimWorld world, Instant now) {
    return new ClusterSnapshot(
        now,
        world.nodes(),
        world.queues(),
        world.jobs().stream()
            .filter(j -> !j.arrival.isAfter(now))
            .map(SimJob::current)
            .collect(ImmutableList.toImmutableList()));
  }

  /** Applies what the cycle decided, and keeps each task's fit message for the report. */
  private static void apply(SimWorld world, Session session, Instant now) {
    Map<String, SimTask> tasks = new HashMap<>();
    for (SimJob job : world.jobs()) {
      for (SimTask t : job.tasks) {
        tasks.put(t.template.id(), t);
      }
    }
    for (Decision d : session.decisions()) {
      SimTask t = tasks.get(d.taskId());
      switch (d.kind()) {
        case BIND -> {
          BindDecision b = (BindDecision) d;
          place(t, TaskStatus.BINDING, b.nodeName(), b.gpuGroups(), b.gpuPortion(), now);
        }
        case PIPELINE -> {
          PipelineDecision p = (PipelineDecision) d;
          place(t, TaskStatus.PIPELINED, p.nodeName(), p.gpuGroups(), p.gpuPortion(), now);
        }
        case EVICT -> {
          EvictDecision e = (EvictDecision) d;
          t.status = TaskStatus.RELEASING;
          t.since = now;
          t.message = e.message();
        }
      }
    }
    for (JobState job : session.jobs()) {
      Optional<String> jobMessage = FitMessages.jobMessage(job.fitErrors());
      for (TaskState task : job.tasks()) {
        SimTask t = tasks.get(task.id());
        boolean waiting = t.status == TaskStatus.PENDING || t.status == TaskStatus.GATED;
        t.message = waiting ? task.fitError().or(() -> jobMessage).orElse(null) : null;
      }
    }
  }

  private static void place(
      SimTask t, TaskStatus status, String node, List<String> groups, double portion, Instant now) {
    t.status = status;
    t.node = node;
    t.gpuGroups = ImmutableList.copyOf(groups);
    t.gpuPortion = portion;
    t.since = now;
  }

  /** Moves the world to the next cycle's time (scenario-format.md, multi-cycle rules). */
  private static void advance(SimWorld world, Instant now) {
    long creationOrder = world.jobs().stream().mapToLong(j -> j.tasks.size()).sum() * 2L;
    for (SimJob job : world.jobs()) {
      List<SimTask> next = new ArrayList<>();
      for (SimTask t : job.tasks) {
        switch (t.status) {
          case BINDING, BOUND -> {
            // the task started when it was bound; its duration counts from then
            t.status = TaskStatus.RUNNING;
            next.add(t);
          }
          case PIPELINED -> {
            place(t, TaskStatus.PENDING, null, List.of(), 0, now);
            t.node = null;
            next.add(t);
          }
          case RUNNING -> {
            if (job.duration.isPresent() && !t.since.plus(job.duration.get()).isAfter(now)) {
              t.status = TaskStatus.SUCCEEDED;
              t.gpuGroups = ImmutableList.of();
              t.gpuPortion = 0;
            }
            next.add(t);
          }
          case RELEASING -> {
            Duration released = Duration.between(t.since, now);
            if (released.compareTo(job.terminationGracePeriod) >= 0 && !released.isZero()
                || job.terminationGracePeriod.isZero()) {
              if (job.replace) {
                next.add(t.replacement(now, creationOrder++));
              }
            } else {
              next.add(t);
            }
          }
          default -> next.add(t);
        }
      }
      job.tasks.clear();
      job.tasks.addAll(next);
    }
  }

  /** The plugin set used to read the final state (node accounting only). */
  static PluginHooks noPlugins() {
    return new PluginHooks(List.of());
  }

  static Optional<ProportionPlugin> proportion(Session session) {
    return session.hooks().plugins().stream()
        .filter(ProportionPlugin.class::isInstance)
        .map(ProportionPlugin.class::cast)
        .findFirst();
  }
}
