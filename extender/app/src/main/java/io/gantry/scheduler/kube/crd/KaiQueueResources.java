package io.gantry.scheduler.kube.crd;

/** A Queue's {@code spec.resources}: GPU in devices, CPU in millicores, memory in MB. */
public record KaiQueueResources(KaiQueueQuota gpu, KaiQueueQuota cpu, KaiQueueQuota memory) {}
