package io.gantry.scheduler.framework.fit;

/**
 * A task of the job's pass fit on no node, so the pass was discarded: KAI's {@code
 * PodSchedulingErrors}, recorded on the job and on the task. {@link #nodes()} says why each node
 * refused it.
 */
public sealed interface PodSchedulingFailure extends JobFitReason
    permits GangIncomplete, PodResourcesNotFound, NoEvictionCanHelp {
  NoNodeFits nodes();

  @Override
  default Code code() {
    return Code.POD_SCHEDULING_ERRORS;
  }
}
