package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.BindDecision;

/**
 * Where the engine placed a task: its node and, for a GPU fraction, the shared GPU groups and the
 * per-device portion it holds there.
 */
public record PlannedNode(String node, ImmutableList<String> gpuGroups, GpuAmount gpuPortion) {
  public PlannedNode {
    requireNonNull(node, "node is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
  }

  static PlannedNode of(BindDecision d) {
    return new PlannedNode(d.nodeName(), d.gpuGroups(), d.gpuPortion());
  }
}
