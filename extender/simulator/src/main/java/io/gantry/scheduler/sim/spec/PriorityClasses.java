package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import java.util.OptionalInt;

/** The priority classes a job may name, and their priorities. */
public final class PriorityClasses {
  /** In increasing priority, the order error messages list them in. */
  public static final ImmutableMap<String, Integer> KNOWN =
      ImmutableMap.of("train", 50, "build-preemptible", 75, "build", 100, "inference", 125);

  private PriorityClasses() {}

  public static OptionalInt priorityOf(String priorityClass) {
    Integer priority = KNOWN.get(priorityClass);
    return priority == null ? OptionalInt.empty() : OptionalInt.of(priority);
  }
}
