package io.gantry.scheduler.api.result;

/**
 * What a committed statement decided, as a value, before anything acts on it. Consumers switch
 * exhaustively on {@link #kind()}.
 */
public sealed interface Decision permits BindDecision, PipelineDecision, EvictDecision {
  enum Kind {
    BIND,
    PIPELINE,
    EVICT
  }

  Kind kind();

  String taskId();
}
