package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.TaskStatus;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one way a task changes placement in a session: {@link #move} keeps node accounting, the node
 * index, the quota GPU ledger and the plugins' allocation listeners in step, and bumps the
 * placement version plugins cache by. Between {@link #placeSnapshotTasks} and {@link
 * #removePipelined} the listeners hear of every move; before and after, nobody does.
 *
 * <p>Placements form a small state machine: a task is nowhere, or on a node in some status with a
 * charge on it. A releasing task can be pipelined away, keeping its releasing place as a footprint
 * ({@code evictedFrom}); moving it back to that footprint restores it. Pipelining a task away that
 * is not releasing on a charged place is a bug, and {@link #move} throws {@link
 * IllegalStateException}. Single-threaded.
 */
final class TaskMoves {
  private final SessionState state;
  private final QuotaGpuLedger ledger;
  private final PluginHooks hooks;
  private final Set<TaskState> evictedInOpenStatement =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean notifying;
  private long placementVersion;

  TaskMoves(SessionState state, QuotaGpuLedger ledger, PluginHooks hooks) {
    this.state = state;
    this.ledger = ledger;
    this.hooks = hooks;
  }

  /**
   * Puts every task that holds resources on its node, then starts telling the listeners of moves. A
   * task the snapshot shows pipelined holds the releasing resources it was placed on for this
   * cycle, so no other task is pipelined onto them; it leaves at {@link #removePipelined}.
   */
  void placeSnapshotTasks() {
    for (JobState job : state.jobs()) {
      for (TaskState task : job.tasks()) {
        boolean occupies =
            task.status().holdsNodeResources() || task.status() == TaskStatus.PIPELINED;
        if (occupies && task.nodeName().isPresent()) {
          TaskPlacement placed = task.placement();
          task.apply(TaskPlacement.nowhere());
          move(task, placed);
        }
      }
    }
    state.indexNodes();
    notifying = true;
  }

  /**
   * Stops telling the listeners, then takes tasks that were only pipelined off their nodes, since
   * they bind nothing and the next cycle decides them anew. Node state then reads as the cluster
   * will hold it.
   */
  void removePipelined() {
    notifying = false;
    for (JobState job : state.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.status() == TaskStatus.PIPELINED) {
          // an evicted task pipelined elsewhere is back to its releasing place
          move(task, task.placement().evictedFrom().orElse(TaskPlacement.nowhere()));
        }
      }
    }
  }

  /** Changes whenever any task moves. */
  long placementVersion() {
    return placementVersion;
  }

  /** Whether a statement that is still open evicted the task (KAI's virtual status). */
  boolean evictedInOpenStatement(TaskState task) {
    return evictedInOpenStatement.contains(task);
  }

  void markEvictedInOpenStatement(TaskState task, boolean evicted) {
    boolean changed =
        evicted ? evictedInOpenStatement.add(task) : evictedInOpenStatement.remove(task);
    if (changed) {
      // whether the task waits for a place changed: so may its job's tasks to allocate
      task.job().changed();
    }
  }

  /**
   * Moves a task to a new placement. A target whose {@code evictedFrom} is the current (releasing)
   * placement pipelines an evicted task elsewhere while its old pod keeps releasing; a target equal
   * to the current {@code evictedFrom} takes the task back to its releasing place.
   *
   * @throws IllegalStateException when the target pipelines away a task that is not releasing
   */
  void move(TaskState task, TaskPlacement target) {
    placementVersion++;
    task.job().changed();
    TaskPlacement current = task.placement();
    boolean wasCounted = countsAsAllocated(current.status());
    GpuAmount gpusFreed = GpuAmount.ZERO;
    if (wasCounted) {
      // the task's own portion is read before it moves; its claims go with their last holder
      gpusFreed = ledger.release(task, current.nodeName().orElseThrow());
    }
    Optional<TaskPlacement> footprint = current.evictedFrom();
    boolean restore = footprint.isPresent() && footprint.get().equals(target);
    boolean keepCurrent =
        target.evictedFrom().isPresent() && target.evictedFrom().get().equals(current);
    boolean keepFootprint = footprint.isPresent() && target.evictedFrom().equals(footprint);
    if (keepCurrent && (current.charge() == null || current.status() != TaskStatus.RELEASING)) {
      throw new IllegalStateException("only a releasing task can be pipelined away: " + task.id());
    }
    if (current.charge() != null && !keepCurrent) {
      discharge(task, current);
    }
    if (footprint.isPresent() && !restore && !keepFootprint) {
      discharge(task, footprint.get());
    }
    TaskPlacement applied =
        restore ? footprint.get() : charged(task, current, target, keepCurrent, keepFootprint);
    task.apply(applied);
    if (notifying && wasCounted) {
      hooks.notifyDeallocate(task, gpusFreed);
    }
    if (countsAsAllocated(applied.status())) {
      GpuAmount gpusAdded = ledger.hold(task, applied.nodeName().orElseThrow());
      if (notifying) {
        hooks.notifyAllocate(task, gpusAdded);
      }
    }
  }

  /** The target with the charge its node takes for it, keeping the footprint the move keeps. */
  private TaskPlacement charged(
      TaskState task,
      TaskPlacement current,
      TaskPlacement target,
      boolean keepCurrent,
      boolean keepFootprint) {
    NodeCharge charge = null;
    if (target.status().holdsNodeResources() || target.status() == TaskStatus.PIPELINED) {
      NodeState to = state.node(target.nodeName().orElseThrow());
      // a task evicted where it runs keeps the devices it holds there; a task of the snapshot
      // keeps those it was seen on
      List<Integer> wantedDevices =
          current.charge() != null && current.nodeName().equals(target.nodeName())
              ? current.charge().gpuDevices()
              : target.nodeName().equals(task.info().nodeName())
                  ? task.info().gpuDevices()
                  : List.of();
      charge =
          to.charge(
              task.info(), target.status(), target.gpuGroups(), target.gpuPortion(), wantedDevices);
      state.nodeIndex().update(to);
    }
    Optional<TaskPlacement> keptFootprint =
        keepCurrent
            ? Optional.of(current)
            : keepFootprint ? current.evictedFrom() : Optional.empty();
    return new TaskPlacement(
        target.status(),
        target.nodeName(),
        target.gpuGroups(),
        target.gpuPortion(),
        charge,
        keptFootprint);
  }

  private void discharge(TaskState task, TaskPlacement placement) {
    NodeState from = state.node(placement.nodeName().orElseThrow());
    from.discharge(
        task.info(),
        placement.status(),
        placement.gpuGroups(),
        placement.gpuPortion(),
        placement.charge());
    state.nodeIndex().update(from);
  }

  /** Whether a task in this status counts toward its queue's allocation (pipelined included). */
  static boolean countsAsAllocated(TaskStatus status) {
    return status.isAllocated() || status == TaskStatus.PIPELINED;
  }
}
