package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.PipelineDecision;

/** One entry of a statement's log, holding the task's placement before the operation. */
sealed interface Operation permits Operation.AllocateOp, Operation.PipelineOp, Operation.EvictOp {
  TaskState task();

  TaskPlacement before();

  Decision decision();

  record AllocateOp(TaskState task, TaskPlacement before) implements Operation {
    public AllocateOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
    }

    @Override
    public Decision decision() {
      return new BindDecision(
          task.id(), task.nodeName().orElseThrow(), task.gpuGroups(), task.gpuPortion());
    }
  }

  record PipelineOp(TaskState task, TaskPlacement before) implements Operation {
    public PipelineOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
    }

    @Override
    public Decision decision() {
      return new PipelineDecision(
          task.id(), task.nodeName().orElseThrow(), task.gpuGroups(), task.gpuPortion());
    }
  }

  record EvictOp(TaskState task, TaskPlacement before, String message) implements Operation {
    public EvictOp {
      requireNonNull(task, "task is null");
      requireNonNull(before, "before is null");
      requireNonNull(message, "message is null");
    }

    @Override
    public Decision decision() {
      return new EvictDecision(task.id(), before.nodeName().orElseThrow(), message);
    }
  }
}
