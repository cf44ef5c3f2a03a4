package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/**
 * An eviction action's check before its victim search: no node could take the pod {@code
 * namespace/pod} even with every pod on it evicted — what no eviction changes (readiness, cordon,
 * affinity, taints) or its allocatable capacity refuses it — so no victims are searched for.
 */
public record NoEvictionCanHelp(String namespace, String pod, NoNodeFits nodes)
    implements PodSchedulingFailure {
  public NoEvictionCanHelp {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(pod, "pod is null");
    requireNonNull(nodes, "nodes is null");
  }

  @Override
  public Kind kind() {
    return Kind.NO_EVICTION_CAN_HELP;
  }
}
