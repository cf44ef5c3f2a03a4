package io.gantry.cli.e2e;

import java.util.Arrays;
import java.util.Optional;

/**
 * The end-to-end presets of {@code gantry bench}: the live scheduler against the fake API server,
 * at 1,000 or 5,000 nodes with ten pending pods a node; and its heap at 5,000 nodes with thirty
 * running pods a node ({@link #MEMORY_150K}).
 */
public enum E2ePreset {
  E2E_1K("e2e-1k", 1_000),
  E2E_5K("e2e-5k", 5_000),
  MEMORY_150K("e2e-memory-150k", 5_000);

  /** Running pods a node of {@link #MEMORY_150K}: 8 on GPUs, 22 CPU-only. */
  public static final int RUNNING_PODS_PER_NODE = 30;

  private final String presetName;
  private final int nodes;

  E2ePreset(String presetName, int nodes) {
    this.presetName = presetName;
    this.nodes = nodes;
  }

  public String presetName() {
    return presetName;
  }

  /** Whether this preset measures the scheduler's heap rather than binds. */
  public boolean memory() {
    return this == MEMORY_150K;
  }

  /** The preset's nodes, or {@code nodesOverride} when given. */
  public int nodes(Optional<Integer> nodesOverride) {
    return nodesOverride.orElse(nodes);
  }

  /** The preset's workload, or the same mix on {@code nodes} nodes when given. */
  public E2eWorkload workload(Optional<Integer> nodesOverride) {
    return E2eWorkload.of(nodesOverride.orElse(nodes));
  }

  public static Optional<E2ePreset> byName(String name) {
    return Arrays.stream(values()).filter(p -> p.presetName.equals(name)).findFirst();
  }
}
