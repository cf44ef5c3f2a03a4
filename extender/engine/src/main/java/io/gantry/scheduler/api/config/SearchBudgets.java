package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.time.Duration;
import java.util.Map;

/**
 * KAI's {@code scenarioSearchBudgets} (kai-reference §4.11): how long eviction actions may search
 * for victims. {@code maxActionSearchDuration} by action key ({@value #DEFAULT}, {@code reclaim},
 * {@code preempt}, {@code consolidation}), {@code maxJobSearchDuration} per preemptor, {@code
 * minJobSearchDuration} the least a preemptor gets even when the action's budget is nearly spent,
 * {@code maxGeneratorSearchDuration} by generator ({@value #DEFAULT}, {@code NodeLocalGreedy},
 * {@code MultiNodeGang}). Zero means unlimited for the maximums. A key missing from a map takes the
 * map's {@value #DEFAULT} entry, else KAI's default.
 */
public record SearchBudgets(
    ImmutableSortedMap<String, Duration> maxActionSearchDuration,
    Duration maxJobSearchDuration,
    Duration minJobSearchDuration,
    ImmutableSortedMap<String, Duration> maxGeneratorSearchDuration) {

  public static final String DEFAULT = "default";
  public static final String NODE_LOCAL_GREEDY = "NodeLocalGreedy";
  public static final String MULTI_NODE_GANG = "MultiNodeGang";

  /** KAI's defaults: 5m per action, 4m per job, no minimum, 2m per generator (30s node-local). */
  public static final SearchBudgets DEFAULTS =
      new SearchBudgets(
          ImmutableSortedMap.of(), Duration.ofMinutes(4), Duration.ZERO, ImmutableSortedMap.of());

  private static final Duration DEFAULT_ACTION = Duration.ofMinutes(5);
  private static final Duration DEFAULT_GENERATOR = Duration.ofMinutes(2);
  private static final Duration DEFAULT_NODE_LOCAL_GREEDY = Duration.ofSeconds(30);

  public SearchBudgets {
    requireNonNull(maxActionSearchDuration, "maxActionSearchDuration is null");
    requireNonNull(maxJobSearchDuration, "maxJobSearchDuration is null");
    requireNonNull(minJobSearchDuration, "minJobSearchDuration is null");
    requireNonNull(maxGeneratorSearchDuration, "maxGeneratorSearchDuration is null");
    requireNonNegative("maxActionSearchDuration", maxActionSearchDuration);
    requireNonNegative("maxGeneratorSearchDuration", maxGeneratorSearchDuration);
    requireNonNegative("maxJobSearchDuration", maxJobSearchDuration);
    requireNonNegative("minJobSearchDuration", minJobSearchDuration);
    if (!maxJobSearchDuration.isZero()
        && minJobSearchDuration.compareTo(maxJobSearchDuration) >= 0) {
      throw new ConfigException(
          "scenarioSearchBudgets.minJobSearchDuration", "must be less than maxJobSearchDuration");
    }
  }

  /** The action's budget: its own key, else {@value #DEFAULT}, else 5m. Zero is unlimited. */
  public Duration action(String actionKey) {
    Duration d = maxActionSearchDuration.get(actionKey);
    if (d != null) {
      return d;
    }
    return maxActionSearchDuration.getOrDefault(DEFAULT, DEFAULT_ACTION);
  }

  /**
   * A generator's budget: its own key; else a configured {@value #DEFAULT}; else KAI's default for
   * the generator (30s NodeLocalGreedy, 2m otherwise). Zero is unlimited.
   */
  public Duration generator(String generatorName) {
    Duration d = maxGeneratorSearchDuration.get(generatorName);
    if (d != null) {
      return d;
    }
    Duration configuredDefault = maxGeneratorSearchDuration.get(DEFAULT);
    if (configuredDefault != null) {
      return configuredDefault;
    }
    return generatorName.equals(NODE_LOCAL_GREEDY) ? DEFAULT_NODE_LOCAL_GREEDY : DEFAULT_GENERATOR;
  }

  private static void requireNonNegative(String key, Map<String, Duration> values) {
    values.forEach((k, v) -> requireNonNegative(key + "." + k, v));
  }

  private static void requireNonNegative(String key, Duration value) {
    if (value.isNegative()) {
      throw new ConfigException("scenarioSearchBudgets." + key, "must not be negative");
    }
  }
}
