package io.gantry.scheduler.framework.fit;

/**
 * Why a task does not fit a node, or why a job was not placed, as a value. Predicates, the resource
 * fit and the queue capacity checks return these; {@link FitMessages} alone turns them into KAI's
 * sentences (kai-reference §11). Consumers switch exhaustively on {@link #kind()}.
 */
public sealed interface FitReason permits NodeFitReason, JobFitReason {
  /** One constant per reason record. */
  enum Kind {
    NODE_NOT_READY,
    NODE_UNSCHEDULABLE,
    TOO_MANY_PODS,
    NODE_SELECTOR_MISMATCH,
    NODE_AFFINITY_MISMATCH,
    UNTOLERATED_TAINT,
    POD_AFFINITY_UNSATISFIED,
    POD_ANTI_AFFINITY_CONFLICT,
    EXISTING_POD_ANTI_AFFINITY_CONFLICT,
    INSUFFICIENT_RESOURCE,
    INSUFFICIENT_EXTENDED_RESOURCE,
    GPU_MEMORY_NOT_SYNCED,
    GPU_MEMORY_TOO_SMALL,
    NODE_RESOURCE_TYPE_MISMATCH,
    SHARED_GPUS_UNAVAILABLE,
    OVER_LIMIT,
    NON_PREEMPTIBLE_OVER_QUOTA,
    QUEUE_DOES_NOT_EXIST,
    JOB_NOT_READY,
    GANG_INCOMPLETE,
    POD_RESOURCES_NOT_FOUND,
    ALLOCATABLE_TOO_SMALL,
    NO_EVICTION_CAN_HELP,
    PREEMPTION_DELAY_NOT_ELAPSED,
    TOPOLOGY_MISSING,
    TOPOLOGY_LEVEL_MISSING,
    TOPOLOGY_UNSATISFIABLE,
    TOPOLOGY_NO_DOMAIN_FITS,
    TOPOLOGY_DOMAIN_TOO_SMALL,
    CLAIM_UNALLOCATABLE
  }

  Kind kind();
}
