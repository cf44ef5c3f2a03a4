package io.gantry.scheduler.actions;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.EvictionScenario;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Simulates one eviction scenario (kai-reference §4.11): evicts every victim in a statement, then
 * allocates — in queue order, every placement pipelined — the preemptor's tasks and each ready
 * victim job again, the victims only where they fit. The scenario holds when the preemptor is
 * placed and the validator accepts what the victims ended as; its statement is then handed back
 * open, with the victims that were really evicted (released, or pipelined elsewhere). A victim
 * placed back on its own node keeps running and is no victim.
 */
final class ScenarioSimulator {
  private final Session session;
  private final ActionType action;
  private final JobAllocator allocator;
  private final TasksToAllocate tasksToAllocate;
  private final boolean allowConsolidatingReclaim;
  private final Messages messages;
  private final Predicate<EvictionScenario> validator;

  /**
   * Why a scenario evicts each victim, in KAI's words. {@link #before} runs before any victim is
   * evicted and reads what the messages quote; the function it returns formats one victim's message
   * from that alone, and runs only for evictions that are committed.
   */
  @FunctionalInterface
  interface Messages {
    Function<TaskState, String> before(JobState preemptor, List<TaskState> victims);
  }

  /** A scenario that holds: its open statement and the tasks it evicts. */
  record Solution(Statement statement, ImmutableList<TaskState> victims) {
    Solution {
      requireNonNull(statement, "statement is null");
      requireNonNull(victims, "victims is null");
    }
  }

  ScenarioSimulator(
      Session session,
      ActionType action,
      boolean allowConsolidatingReclaim,
      Messages messages,
      Predicate<EvictionScenario> validator) {
    this.session = session;
    this.action = action;
    this.allocator = new JobAllocator(session);
    this.tasksToAllocate = new TasksToAllocate(session);
    this.allowConsolidatingReclaim = allowConsolidatingReclaim;
    this.messages = messages;
    this.validator = validator;
  }

  Optional<Solution> simulate(
      JobState preemptor,
      List<TaskState> pendingTasks,
      Resources request,
      List<TaskState> victims) {
    if (victims.isEmpty()) {
      return Optional.empty();
    }
    Statement statement = session.statement();
    boolean handedOver = false;
    try {
      // messages describe the state before any victim is evicted
      Function<TaskState, String> message = messages.before(preemptor, victims);
      EvictionCause cause =
          new EvictionCause(action.actionName(), Optional.of(preemptor.id()), victims.size());
      Set<JobState> victimJobs = new LinkedHashSet<>();
      for (TaskState v : victims) {
        victimJobs.add(v.job());
      }
      Set<JobState> wholeGangs = new LinkedHashSet<>();
      Set<JobState> placeable = new LinkedHashSet<>();
      for (JobState j : victimJobs) {
        if (gangSatisfied(j)) {
          wholeGangs.add(j);
        }
        // an unready job gets no placement this cycle (kai-reference §4.4), not even its evicted
        // tasks' way back; read before the evictions below take its tasks out of the alive ones
        if (PreemptorCandidates.ready(j)) {
          placeable.add(j);
        }
      }
      for (TaskState v : victims) {
        statement.evict(v, () -> message.apply(v), cause);
      }
      if (!allocateInQueueOrder(preemptor, pendingTasks, placeable, statement)
          || leavesAGangBelowItsMinimum(wholeGangs)) {
        return Optional.empty();
      }
      EvictionScenario scenario =
          new EvictionScenario(
              preemptor,
              ImmutableList.copyOf(pendingTasks),
              request,
              ImmutableList.copyOf(victims),
              allowConsolidatingReclaim);
      if (!validator.test(scenario)) {
        return Optional.empty();
      }
      ImmutableList.Builder<TaskState> evicted = ImmutableList.builder();
      for (TaskState v : victims) {
        if (statement.evicted(v)) {
          evicted.add(v);
        }
      }
      handedOver = true;
      return Optional.of(new Solution(statement, evicted.build()));
    } finally {
      if (!handedOver) {
        statement.close();
      }
    }
  }

  private boolean gangSatisfied(JobState job) {
    return tasksToAllocate
        .progress(job, job.info().root(), TaskStatus::isActiveAllocated)
        .satisfied();
  }

  /**
   * Whether a victim job that met its minimum before the scenario keeps some tasks but no longer
   * meets it. Victims come in whole batches (a surplus pod, or the rest of the gang), but victims
   * recorded by a smaller probe, less the ones that probe placed again, can cut a gang; evicting
   * part of a gang and leaving the rest running below its minimum helps no one.
   */
  private boolean leavesAGangBelowItsMinimum(Set<JobState> wholeGangs) {
    for (JobState j : wholeGangs) {
      if (j.count(TaskStatus::isActiveAllocated) > 0 && !gangSatisfied(j)) {
        return true;
      }
    }
    return false;
  }

  private boolean allocateInQueueOrder(
      JobState preemptor,
      List<TaskState> pendingTasks,
      Set<JobState> placeableVictimJobs,
      Statement statement) {
    // KAI orders the simulation among every pending job of the session and skips those that are
    // neither the preemptor nor a victim: a queue is compared by its first pending job even when
    // that job takes no part (integration reclaim_test "… allocate will case a loop"). A victim
    // job that was not ready before the scenario is not placed again (§4.4).
    Set<JobState> jobs = new LinkedHashSet<>();
    for (JobState j : session.jobs()) {
      if (j.hasPendingTasks()) {
        jobs.add(j);
      }
    }
    jobs.addAll(placeableVictimJobs);
    jobs.add(preemptor);
    JobsOrderByQueues order =
        new JobsOrderByQueues(session.hooks(), session.snapshot().queues(), List.copyOf(jobs));
    boolean placed = false;
    JobState job;
    while ((job = order.pop()) != null) {
      if (job != preemptor && !placeableVictimJobs.contains(job)) {
        order.finish(job, false);
        continue;
      }
      if (job == preemptor) {
        if (!allocator.simulate(preemptor, pendingTasks, statement)) {
          order.finish(job, false);
          return false;
        }
        placed = true;
      } else {
        List<TaskState> tasks = tasksToAllocate.of(job);
        if (!tasks.isEmpty()) {
          Statement.Checkpoint checkpoint = statement.checkpoint();
          if (!allocator.simulate(job, tasks, statement)) {
            statement.rollback(checkpoint);
          }
        }
      }
      order.finish(job, false);
    }
    return placed;
  }
}
