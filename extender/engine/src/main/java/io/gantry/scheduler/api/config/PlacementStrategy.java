package io.gantry.scheduler.api.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Node placement strategy per resource type: KAI's {@code placementStrategy} ({@code binpack},
 * {@code spread}), Gantry's {@code fragmentation-aware}, and the placement baselines of "Beware of
 * Fragmentation" (Weng et al., USENIX ATC 2023) that {@code gantry trace} compares it with.
 */
public enum PlacementStrategy {
  BINPACK("binpack"),
  SPREAD("spread"),
  /** Keeps the cluster able to take the task shapes it has been seen to receive. */
  FRAGMENTATION_AWARE("fragmentation-aware"),
  /** The paper's random fit: any feasible node, pseudo-randomly per task and node. */
  RANDOM("random"),
  /** The paper's best fit: the node with the least CPU and GPU left, as shares of the node. */
  BEST_FIT("best-fit"),
  /** The paper's dot product: the smallest dot product of request and free resources. */
  DOT_PRODUCT("dot-product"),
  /** The paper's GPU packing: a shared GPU that fits, then a node in use, then an idle node. */
  GPU_PACKING("gpu-packing");

  private final String k8sName;

  PlacementStrategy(String k8sName) {
    this.k8sName = k8sName;
  }

  /** Throws {@link IllegalArgumentException} saying what was expected. */
  public static PlacementStrategy parse(String value) {
    for (PlacementStrategy s : values()) {
      if (s.k8sName.equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("expected one of " + names() + ", got \"" + value + "\"");
  }

  /** Every strategy's name, comma-separated, in declaration order. */
  public static String names() {
    return Arrays.stream(values()).map(s -> s.k8sName).collect(Collectors.joining(", "));
  }

  public String k8sName() {
    return k8sName;
  }

  /** KAI's own strategies, which the {@code nodeplacement} plugin scores. */
  public boolean isKai() {
    return this == BINPACK || this == SPREAD;
  }
}
