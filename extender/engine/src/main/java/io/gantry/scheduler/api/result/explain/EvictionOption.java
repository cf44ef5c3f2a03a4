package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * What an eviction action ({@code reclaim}, {@code preempt}) would do for the job if it ran right
 * after allocate on the same state: hypothetical, computed on a copy, never applied. {@code
 * placesJob}: the job would be placed (pipelined) and the victims evicted for it.
 */
public record EvictionOption(String action, boolean placesJob, ImmutableList<Victim> victims) {
  public EvictionOption {
    requireNonNull(action, "action is null");
    requireNonNull(victims, "victims is null");
  }
}
