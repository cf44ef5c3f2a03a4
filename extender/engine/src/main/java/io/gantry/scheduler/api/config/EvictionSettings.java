package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Scheduler-wide settings of the eviction actions (kai-reference §4.7–4.11).
 *
 * @param defaultStalenessGracePeriod how long a gang may stay below its minimum before stale-gang
 *     eviction, for jobs that set none ({@code --default-staleness-grace-period}, 60s); negative:
 *     never evict
 * @param maxConsolidationPreemptees how many running jobs consolidation may consider moving ({@code
 *     --max-consolidation-preemptees}, 16); 0 disables consolidation, -1 is unlimited
 * @param allowConsolidatingReclaim victims that a reclaim re-places elsewhere do not count as
 *     reclaimed resources ({@code --allow-consolidating-reclaim}, true)
 * @param budgets how long the victim search may take
 */
public record EvictionSettings(
    Duration defaultStalenessGracePeriod,
    int maxConsolidationPreemptees,
    boolean allowConsolidatingReclaim,
    SearchBudgets budgets) {

  public static final EvictionSettings DEFAULTS =
      new EvictionSettings(Duration.ofSeconds(60), 16, true, SearchBudgets.DEFAULTS);

  public EvictionSettings {
    requireNonNull(defaultStalenessGracePeriod, "defaultStalenessGracePeriod is null");
    requireNonNull(budgets, "budgets is null");
    if (maxConsolidationPreemptees < -1) {
      throw new ConfigException(
          "maxConsolidationPreemptees",
          "must be -1 (unlimited) or >= 0, got " + maxConsolidationPreemptees);
    }
  }
}
