package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

/** A host directory a container needs mounted to use its GPUs (the MPS pipe directory). */
public record HostMount(String hostPath, String containerPath) {
  public HostMount {
    requireNonNull(hostPath, "hostPath is null");
    requireNonNull(containerPath, "containerPath is null");
  }
}
