package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A log of operations on a session. Each operation changes the session at once (so later checks see
 * it) and records the state before it, so {@link #rollback} can undo to a checkpoint. {@link
 * #commit} makes the operations final and returns them as decisions; {@link #close} undoes whatever
 * was not committed.
 */
public final class Statement implements AutoCloseable {
  private final Session session;
  private final List<Operation> operations = new ArrayList<>();

  /**
   * Each task's eviction in the log that no later operation took back, kept with the log so a
   * victim search's lookups do not scan it (the log stays the truth). Looked up, never iterated.
   * Made at the first eviction: most statements, one per job pass, evict nothing.
   */
  private IdentityHashMap<TaskState, Operation.EvictOp> evictions;

  private boolean finished;

  /** A position in the log. */
  public record Checkpoint(int position) {}

  Statement(Session session) {
    this.session = session;
  }

  public void allocate(
      TaskState task, NodeState node, List<String> gpuGroups, GpuAmount gpuPortion) {
    TaskPlacement before = task.placement();
    session.move(task, target(TaskStatus.ALLOCATED, node, gpuGroups, gpuPortion));
    operations.add(new Operation.AllocateOp(task, before, session.hooks().claimAllocations(task)));
  }

  /**
   * Places the task on resources still being released. A task this statement evicted goes back to
   * running when it is pipelined onto the node it runs on (the eviction is taken back), unless it
   * is a shared-GPU task pipelined onto other GPUs there, or what it releases there is already
   * promised to another task; pipelined onto another node or other GPUs, or kept from going back,
   * its old pod keeps releasing where it was.
   */
  public void pipeline(
      TaskState task, NodeState node, List<String> gpuGroups, GpuAmount gpuPortion) {
    TaskPlacement before = task.placement();
    if (before.status() == TaskStatus.RELEASING) {
      Optional<Operation.EvictOp> eviction = evictionOf(task);
      if (eviction.isEmpty()) {
        throw new IllegalStateException(
            "task " + task.id() + " is releasing but was not evicted by this statement");
      }
      if (before.nodeName().equals(Optional.of(node.name()))
          && !toOtherSharedGpus(task, before, gpuGroups)) {
        boolean overPromisedBefore = node.overPromised();
        session.move(task, eviction.get().before());
        if (overPromisedBefore || !node.overPromised()) {
          session.markEvictedInOpenStatement(task, false);
          operations.add(new Operation.UnevictOp(task, before));
          evictions.remove(task);
          return;
        }
        // what it releases is already promised to a task pipelined here (the place it was given
        // fitted without that), so it cannot stay where it runs: its old pod keeps releasing and
        // it waits on the place it was given, like a victim moved to another node
        session.move(task, before);
      }
      session.move(
          task,
          new TaskPlacement(
              TaskStatus.PIPELINED,
              Optional.of(node.name()),
              ImmutableList.copyOf(gpuGroups),
              gpuPortion,
              null,
              Optional.of(before)));
      operations.add(new Operation.PipelineOp(task, before));
      return;
    }
    session.move(task, target(TaskStatus.PIPELINED, node, gpuGroups, gpuPortion));
    operations.add(new Operation.PipelineOp(task, before));
  }

  /**
   * A shared-GPU task pipelined onto other GPU groups of the node it is evicted on moves there
   * (KAI: the GPU placement changed, ConsolidateSharedPodInfoToDifferentGPU): its old groups keep
   * releasing, and the eviction stands.
   */
  private static boolean toOtherSharedGpus(
      TaskState task, TaskPlacement before, List<String> gpuGroups) {
    return task.info().isShared() && !gpuGroups.isEmpty() && !gpuGroups.equals(before.gpuGroups());
  }

  /**
   * Marks a running task as releasing on its node; its resources become releasing capacity. The
   * message says why, in KAI's words; {@code cause} names the action and the workload it serves.
   */
  public void evict(TaskState task, String message, EvictionCause cause) {
    evict(task, () -> message, cause);
  }

  /**
   * The same, with the message formatted only if the eviction is committed (a victim search
   * simulates many evictions for each it makes). {@code message} must not read the session, which
   * will have changed by then.
   */
  public void evict(TaskState task, Supplier<String> message, EvictionCause cause) {
    TaskPlacement before = task.placement();
    if (!before.status().isActiveAllocated() || before.nodeName().isEmpty()) {
      throw new IllegalStateException("only a placed task can be evicted: " + task.id());
    }
    session.move(
        task,
        new TaskPlacement(
            TaskStatus.RELEASING,
            before.nodeName(),
            before.gpuGroups(),
            before.gpuPortion(),
            null));
    session.markEvictedInOpenStatement(task, true);
    Operation.EvictOp eviction = new Operation.EvictOp(task, before, message, cause);
    operations.add(eviction);
    if (evictions == null) {
      evictions = new IdentityHashMap<>();
    }
    evictions.put(task, eviction);
  }

  /** Whether this statement evicted the task and has not taken the eviction back. */
  public boolean evicted(TaskState task) {
    return evictionOf(task).isPresent();
  }

  /** Turns this statement's allocations into pipelined placements (a gang that must wait). */
  public void convertAllocationsToPipelined() {
    for (int i = 0; i < operations.size(); i++) {
      if (operations.get(i) instanceof Operation.AllocateOp op) {
        TaskState task = op.task();
        NodeState node = session.node(task.nodeName().orElseThrow());
        ImmutableList<String> groups = task.gpuGroups();
        GpuAmount portion = task.gpuPortion();
        session.move(task, op.before());
        session.move(task, target(TaskStatus.PIPELINED, node, groups, portion));
        operations.set(i, new Operation.PipelineOp(task, op.before()));
      }
    }
  }

  public Checkpoint checkpoint() {
    return new Checkpoint(operations.size());
  }

  public void rollback(Checkpoint checkpoint) {
    for (int i = operations.size() - 1; i >= checkpoint.position(); i--) {
      Operation op = operations.remove(i);
      session.move(op.task(), op.before());
      if (op instanceof Operation.EvictOp) {
        session.markEvictedInOpenStatement(op.task(), false);
        evictions.remove(op.task());
      } else if (op instanceof Operation.UnevictOp) {
        session.markEvictedInOpenStatement(op.task(), true);
        evictions.put(op.task(), lastEvictionInLog(op.task()));
      }
    }
  }

  public boolean isEmpty() {
    return operations.isEmpty();
  }

  /**
   * Makes every operation final and hands the decisions to the session, in operation order. An
   * eviction this statement took back decides nothing.
   */
  public ImmutableList<Decision> commit() {
    Set<TaskState> unevicted = Set.of(); // most statements take no eviction back
    for (Operation op : operations) {
      if (op instanceof Operation.UnevictOp u) {
        if (unevicted.isEmpty()) {
          unevicted = new HashSet<>();
        }
        unevicted.add(u.task());
      }
    }
    ImmutableList.Builder<Decision> decisions = ImmutableList.builder();
    for (Operation op : operations) {
      if (op instanceof Operation.EvictOp && unevicted.contains(op.task())) {
        continue;
      }
      op.decision().ifPresent(decisions::add);
    }
    ImmutableList<Decision> out = decisions.build();
    for (Operation op : operations) {
      if (op instanceof Operation.EvictOp) {
        session.markEvictedInOpenStatement(op.task(), false);
      }
    }
    session.recordCommitted(out);
    operations.clear();
    evictions = null;
    finished = true;
    return out;
  }

  /** Undoes every operation that was not committed. */
  @Override
  public void close() {
    if (!finished) {
      rollback(new Checkpoint(0));
      finished = true;
    }
  }

  /** The last eviction of the task in this log, unless an unevict followed it. */
  private Optional<Operation.EvictOp> evictionOf(TaskState task) {
    return evictions == null ? Optional.empty() : Optional.ofNullable(evictions.get(task));
  }

  /** The eviction an unevict being rolled back had taken back: the task's last in the log. */
  private Operation.EvictOp lastEvictionInLog(TaskState task) {
    for (int i = operations.size() - 1; i >= 0; i--) {
      if (operations.get(i) instanceof Operation.EvictOp e && e.task() == task) {
        return e;
      }
    }
    throw new IllegalStateException("task " + task.id() + " was unevicted but never evicted");
  }

  private static TaskPlacement target(
      TaskStatus status, NodeState node, List<String> gpuGroups, GpuAmount gpuPortion) {
    return new TaskPlacement(
        status, Optional.of(node.name()), ImmutableList.copyOf(gpuGroups), gpuPortion, null);
  }
}
