package io.gantry.scheduler.kube.crd;

import java.util.List;
import java.util.Map;

/**
 * A Queue's status as the scheduler writes it: what its subtree holds and asks for, as Kubernetes
 * resource lists ({@code cpu}, {@code memory}, {@code nvidia.com/gpu} quantities).
 */
public record KaiQueueStatus(
    List<String> childQueues,
    Map<String, String> allocated,
    Map<String, String> allocatedNonPreemptible,
    Map<String, String> requested) {}
