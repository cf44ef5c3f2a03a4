package io.gantry.scheduler.kube.crd;

import java.util.Map;

/** A PodGroup's {@code status.resourcesStatus}, as Kubernetes resource lists. */
public record KaiResourcesStatus(
    Map<String, String> allocated,
    Map<String, String> allocatedNonPreemptible,
    Map<String, String> requested) {}
