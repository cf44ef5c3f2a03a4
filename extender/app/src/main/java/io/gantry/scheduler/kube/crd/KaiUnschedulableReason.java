package io.gantry.scheduler.kube.crd;

/** One of a scheduling condition's {@code reasons}. */
public record KaiUnschedulableReason(String reason, String message) {}
