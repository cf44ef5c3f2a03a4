package io.gantry.scheduler.kube.crd;

/** A Queue's spec (kai-reference §2.1). Durations are Go duration strings. */
public record KaiQueueSpec(
    String displayName,
    String parentQueue,
    Integer priority,
    KaiQueueResources resources,
    String preemptMinRuntime,
    String reclaimMinRuntime) {}
