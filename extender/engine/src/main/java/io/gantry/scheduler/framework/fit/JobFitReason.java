package io.gantry.scheduler.framework.fit;

/**
 * Why a job (or one pass of it) was not placed this cycle. Each belongs to one of KAI's fit-error
 * reasons, its {@link #code()}; a job's reasons become its message in {@link
 * FitMessages#jobMessage}.
 */
public sealed interface JobFitReason extends FitReason
    permits CapacityExceeded,
        QueueDoesNotExist,
        JobNotReady,
        PodSchedulingFailure,
        PreemptionDelayNotElapsed,
        TopologyMissing,
        TopologyLevelMissing,
        TopologyUnsatisfiable,
        TopologyNoDomainFits,
        TopologyDomainTooSmall {
  /** KAI's fit-error reasons; {@link FitMessages#code} spells them. */
  enum Code {
    POD_SCHEDULING_ERRORS,
    OVER_LIMIT,
    NON_PREEMPTIBLE_OVER_QUOTA,
    QUEUE_DOES_NOT_EXIST,
    NOT_READY,
    PREEMPTION_DELAY_NOT_ELAPSED,
    NOT_ENOUGH_RESOURCES
  }

  Code code();
}
