package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/** The pod {@code namespace/pod}, outside an incomplete gang, fit on no node. */
public record PodResourcesNotFound(String namespace, String pod, NoNodeFits nodes)
    implements PodSchedulingFailure {
  public PodResourcesNotFound {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(pod, "pod is null");
    requireNonNull(nodes, "nodes is null");
  }

  @Override
  public Kind kind() {
    return Kind.POD_RESOURCES_NOT_FOUND;
  }
}
