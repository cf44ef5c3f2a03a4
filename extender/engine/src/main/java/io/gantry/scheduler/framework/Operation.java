package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.api.result.PipelineDecision;
import java.util.Optional;
import java.util.function.Supplier;

/** One entry of a statement's log, holding the task's placement before the operation. */
sealed interface Operation
    permits Operation.AllocateOp, Operation.PipelineOp, Operation.EvictOp, Operation.UnevictOp {
  TaskState task();

  TaskPlacement before();

  /** What the operation decides, once committed; empty when it only cancels an earlier one. */
  Optional<Decision> decision();

  /** {@code claims}: the task's DRA claim allocations, as they stood when it was allocated. */
  record AllocateOp(TaskState task, TaskPlacement before, ImmutableList<ClaimAllocation> claims)
      implements Operation {
    public AllocateOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
      requireNonNull(claims, "claims is null");
    }

    @Override
    public Optional<Decision> decision() {
      return Optional.of(
          new BindDecision(
              task.id(),
              task.nodeName().orElseThrow(),
              task.gpuGroups(),
              task.gpuPortion(),
              claims,
              task.gpuDevices()));
    }
  }

  record PipelineOp(TaskState task, TaskPlacement before) implements Operation {
    public PipelineOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
    }

    @Override
    public Optional<Decision> decision() {
      return Optional.of(
          new PipelineDecision(
              task.id(),
              task.nodeName().orElseThrow(),
              task.gpuGroups(),
              task.gpuPortion(),
              task.gpuDevices()));
    }
  }

  /** {@code message} is formatted only if the eviction is committed. */
  record EvictOp(
      TaskState task, TaskPlacement before, Supplier<String> message, EvictionCause cause)
      implements Operation {
    public EvictOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
      requireNonNull(message, "message is null");
      requireNonNull(cause, "cause is null");
    }

    @Override
    public Optional<Decision> decision() {
      return Optional.of(
          new EvictDecision(task.id(), before.nodeName().orElseThrow(), message.get(), cause));
    }
  }

  /**
   * Takes back an eviction of this statement: the victim was placed again on the node it runs on,
   * so it keeps running (KAI's unevict). {@code before} is its releasing placement.
   */
  record UnevictOp(TaskState task, TaskPlacement before) implements Operation {
    public UnevictOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
    }

    @Override
    public Optional<Decision> decision() {
      return Optional.empty();
    }
  }
}
