package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;

/** A GPU this node has had since the agent started, and whether it is usable now. */
record TrackedGpu(String uuid, boolean healthy, OptionalInt numaNode) {
  TrackedGpu {
    requireNonNull(uuid, "uuid is null");
    requireNonNull(numaNode, "numaNode is null");
  }
}
