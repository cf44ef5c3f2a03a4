package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * A queue's fair share and allocation after the run, by resource ({@code gpu}, {@code cpu}, {@code
 * memory}).
 */
public record QueueExpect(
    Optional<ImmutableSortedMap<String, Double>> fairShare,
    Optional<ImmutableSortedMap<String, Double>> allocated,
    int line) {
  public QueueExpect {
    requireNonNull(fairShare, "fairShare is null");
    requireNonNull(allocated, "allocated is null");
  }
}
