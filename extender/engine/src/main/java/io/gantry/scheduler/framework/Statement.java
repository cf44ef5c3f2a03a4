package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A log of operations on a session. Each operation changes the session at once (so later checks see
 * it) and records the state before it, so {@link #rollback} can undo to a checkpoint. {@link
 * #commit} makes the operations final and returns them as decisions; {@link #close} undoes whatever
 * was not committed.
 */
public final class Statement implements AutoCloseable {
  private final Session session;
  private final List<Operation> operations = new ArrayList<>();
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
    operations.add(new Operation.AllocateOp(task, before));
  }

  public void pipeline(
      TaskState task, NodeState node, List<String> gpuGroups, GpuAmount gpuPortion) {
    TaskPlacement before = task.placement();
    session.move(task, target(TaskStatus.PIPELINED, node, gpuGroups, gpuPortion));
    operations.add(new Operation.PipelineOp(task, before));
  }

  /** Marks a running task as releasing on its node; its resources become releasing capacity. */
  public void evict(TaskState task, String message) {
    TaskPlacement before = task.placement();
    session.move(
        task,
        new TaskPlacement(
            TaskStatus.RELEASING,
            before.nodeName(),
            before.gpuGroups(),
            before.gpuPortion(),
            null));
    operations.add(new Operation.EvictOp(task, before, message));
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
    }
  }

  public boolean isEmpty() {
    return operations.isEmpty();
  }

  /** Makes every operation final and hands the decisions to the session. */
  public ImmutableList<Decision> commit() {
    ImmutableList.Builder<Decision> decisions = ImmutableList.builder();
    for (Operation op : operations) {
      decisions.add(op.decision());
    }
    ImmutableList<Decision> out = decisions.build();
    session.recordCommitted(out);
    operations.clear();
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

  private static TaskPlacement target(
      TaskStatus status, NodeState node, List<String> gpuGroups, GpuAmount gpuPortion) {
    return new TaskPlacement(
        status, Optional.of(node.name()), ImmutableList.copyOf(gpuGroups), gpuPortion, null);
  }
}
