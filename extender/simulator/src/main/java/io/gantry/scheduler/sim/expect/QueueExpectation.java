package io.gantry.scheduler.sim.expect;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * What one queue's fair share and allocation should be, per resource ({@code gpu}, {@code cpu},
 * {@code memory}) in the units of {@link io.gantry.scheduler.sim.SimulationResult.Amounts}: GPU
 * devices, CPU millicores, memory bytes. Resources not named are not checked.
 */
public record QueueExpectation(
    Optional<ImmutableSortedMap<String, Double>> fairShare,
    Optional<ImmutableSortedMap<String, Double>> allocated) {
  /** The resources a queue expectation may name. */
  public static final ImmutableSet<String> RESOURCES = ImmutableSet.of("gpu", "cpu", "memory");

  public QueueExpectation {
    requireNonNull(fairShare, "fairShare is null");
    requireNonNull(allocated, "allocated is null");
    fairShare.ifPresent(amounts -> requireKnownResources("fairShare", amounts));
    allocated.ifPresent(amounts -> requireKnownResources("allocated", amounts));
  }

  // Caught here rather than at check time, so a typo fails where the expectation is read.
  private static void requireKnownResources(String field, ImmutableSortedMap<String, Double> map) {
    for (String resource : map.keySet()) {
      if (!RESOURCES.contains(resource)) {
        throw new IllegalArgumentException(
            field + "." + resource + ": unknown queue resource, expected one of " + RESOURCES);
      }
    }
  }
}
