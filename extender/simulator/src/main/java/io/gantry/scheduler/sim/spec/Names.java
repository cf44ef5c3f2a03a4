package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import java.util.List;

/** How {@code count} and {@code replicas} name the objects they create. */
final class Names {
  private Names() {}

  /** {@code base} alone for one copy, else {@code base-0 … base-(count-1)}. */
  static List<String> expand(String base, int count) {
    if (count == 1) {
      return ImmutableList.of(base);
    }
    ImmutableList.Builder<String> names = ImmutableList.builder();
    for (int i = 0; i < count; i++) {
      names.add(base + "-" + i);
    }
    return names.build();
  }
}
