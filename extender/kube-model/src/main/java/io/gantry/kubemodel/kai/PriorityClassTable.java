package io.gantry.kubemodel.kai;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The PriorityClasses a cluster has, and how a PodGroup's priority is read from them (kai-reference
 * §2.2, §3.2): a missing or unknown class name takes the cluster's {@code globalDefault} class,
 * else {@value #DEFAULT_PRIORITY}.
 */
public record PriorityClassTable(ImmutableMap<String, Integer> classes, OptionalInt globalDefault) {
  public static final int DEFAULT_PRIORITY = 50;

  /** The four classes KAI's chart installs, in increasing priority; no global default. */
  public static final PriorityClassTable KAI_DEFAULTS =
      new PriorityClassTable(
          ImmutableMap.of("train", 50, "build-preemptible", 75, "build", 100, "inference", 125),
          OptionalInt.empty());

  public PriorityClassTable {
    requireNonNull(classes, "classes is null");
    requireNonNull(globalDefault, "globalDefault is null");
  }

  public boolean knows(String className) {
    return classes.containsKey(className);
  }

  public int priorityOf(Optional<String> className) {
    Integer known = className.map(classes::get).orElse(null);
    return known != null ? known : globalDefault.orElse(DEFAULT_PRIORITY);
  }
}
