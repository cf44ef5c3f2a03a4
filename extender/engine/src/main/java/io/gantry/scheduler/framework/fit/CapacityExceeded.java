package io.gantry.scheduler.framework.fit;

import io.gantry.scheduler.model.ResourceKind;

/**
 * A queue on the path from the job's leaf queue to the root would go over its limit or its
 * non-preemptible quota (kai-reference §5.5): for the job's whole pass, or for one task on one
 * node. Amounts are in {@code resource}'s unit: GPU devices, CPU millicores, memory bytes.
 */
public sealed interface CapacityExceeded extends NodeFitReason, JobFitReason
    permits OverLimit, NonPreemptibleOverQuota {
  String queue();

  ResourceKind resource();
}
