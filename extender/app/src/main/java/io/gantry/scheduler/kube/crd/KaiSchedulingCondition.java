package io.gantry.scheduler.kube.crd;

import java.util.List;

/**
 * One entry of a PodGroup's {@code status.schedulingConditions}: type {@code
 * UnschedulableOnNodePool}, with the deprecated flat {@code reason}/{@code message} and the list of
 * {@code reasons}.
 */
public record KaiSchedulingCondition(
    String type,
    String nodePool,
    String reason,
    String message,
    List<KaiUnschedulableReason> reasons,
    String status,
    String transitionID,
    String lastTransitionTime) {}
