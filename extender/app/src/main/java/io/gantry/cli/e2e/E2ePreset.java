package io.gantry.cli.e2e;

import java.util.Arrays;
import java.util.Optional;

/**
 * The end-to-end presets of {@code gantry bench}: the live scheduler against the fake API server,
 * at 1,000 or 5,000 nodes with ten pending pods a node.
 */
public enum E2ePreset {
  E2E_1K("e2e-1k", 1_000),
  E2E_5K("e2e-5k", 5_000);

  private final String presetName;
  private final int nodes;

  E2ePreset(String presetName, int nodes) {
    this.presetName = presetName;
    this.nodes = nodes;
  }

  public String presetName() {
    return presetName;
  }

  /** The preset's workload, or the same mix on {@code nodes} nodes when given. */
  public E2eWorkload workload(Optional<Integer> nodesOverride) {
    return E2eWorkload.of(nodesOverride.orElse(nodes));
  }

  public static Optional<E2ePreset> byName(String name) {
    return Arrays.stream(values()).filter(p -> p.presetName.equals(name)).findFirst();
  }
}
