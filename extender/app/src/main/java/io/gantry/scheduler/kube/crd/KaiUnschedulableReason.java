package io.gantry.scheduler.kube.crd;

/** One entry of a scheduling condition's reasons list. */
public record KaiUnschedulableReason(String reason, String message) {}
