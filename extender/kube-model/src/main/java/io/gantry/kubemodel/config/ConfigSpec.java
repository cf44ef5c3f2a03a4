package io.gantry.kubemodel.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.QueueDepthPerAction;
import io.gantry.scheduler.api.config.SearchBudgets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code config} section; every field is optional and an absent one means the scheduler's
 * default.
 *
 * @param usage time-based fair share from the simulated allocation history; off when empty
 * @param scenarioSearchBudgets how long the eviction actions may search; KAI's defaults when empty
 * @param queueDepthPerAction the most jobs per leaf queue an action considers, by action name
 * @param fieldLines each key present in the {@code config} mapping (plus {@code placement.gpu} and
 *     {@code placement.cpu}) and its line, so a later stage can point at a setting it rejects
 */
public record ConfigSpec(
    Optional<List<String>> actions,
    OptionalInt cycles,
    Optional<Duration> cyclePeriod,
    Optional<String> gpuPlacement,
    Optional<String> cpuPlacement,
    ImmutableSortedMap<String, PluginSpec> plugins,
    Optional<Duration> staleGangGracePeriod,
    OptionalInt maxConsolidationPreemptees,
    Optional<Boolean> allowConsolidatingReclaim,
    Optional<UsageSpec> usage,
    Optional<SearchBudgets> scenarioSearchBudgets,
    ImmutableSortedMap<String, Integer> queueDepthPerAction,
    ImmutableSortedMap<String, Integer> fieldLines) {
  /** The config of a file without a {@code config} section. */
  public static final ConfigSpec EMPTY =
      new ConfigSpec(
          Optional.empty(),
          OptionalInt.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          ImmutableSortedMap.of(),
          Optional.empty(),
          OptionalInt.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of());

  public ConfigSpec {
    actions = requireNonNull(actions, "actions is null").map(ImmutableList::<String>copyOf);
    requireNonNull(cycles, "cycles is null");
    requireNonNull(cyclePeriod, "cyclePeriod is null");
    requireNonNull(gpuPlacement, "gpuPlacement is null");
    requireNonNull(cpuPlacement, "cpuPlacement is null");
    requireNonNull(plugins, "plugins is null");
    requireNonNull(staleGangGracePeriod, "staleGangGracePeriod is null");
    requireNonNull(maxConsolidationPreemptees, "maxConsolidationPreemptees is null");
    requireNonNull(allowConsolidatingReclaim, "allowConsolidatingReclaim is null");
    requireNonNull(usage, "usage is null");
    requireNonNull(scenarioSearchBudgets, "scenarioSearchBudgets is null");
    requireNonNull(queueDepthPerAction, "queueDepthPerAction is null");
    requireNonNull(fieldLines, "fieldLines is null");
  }

  /** This config with {@code actions} in place of {@code config.actions}. */
  public ConfigSpec withActions(List<String> newActions) {
    return new ConfigSpec(
        Optional.of(newActions),
        cycles,
        cyclePeriod,
        gpuPlacement,
        cpuPlacement,
        plugins,
        staleGangGracePeriod,
        maxConsolidationPreemptees,
        allowConsolidatingReclaim,
        usage,
        scenarioSearchBudgets,
        queueDepthPerAction,
        fieldLines);
  }

  /** KAI's eviction settings this config sets, each left out taking KAI's default. */
  public EvictionSettings evictionSettings() {
    EvictionSettings defaults = EvictionSettings.DEFAULTS;
    return new EvictionSettings(
        staleGangGracePeriod.orElse(defaults.defaultStalenessGracePeriod()),
        maxConsolidationPreemptees.orElse(defaults.maxConsolidationPreemptees()),
        allowConsolidatingReclaim.orElse(defaults.allowConsolidatingReclaim()),
        scenarioSearchBudgets.orElse(defaults.budgets()));
  }

  /** The {@code queueDepthPerAction} this config sets; none when it sets none. */
  public QueueDepthPerAction queueDepths() {
    return new QueueDepthPerAction(queueDepthPerAction);
  }
}
