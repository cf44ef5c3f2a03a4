package io.gantry.kubemodel.config;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.DurationBound;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.QueueDepthPerAction;
import io.gantry.scheduler.api.config.SearchBudgets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Binds the {@code config} section. */
public final class ConfigBinder {
  /** The actions a scenario may run, in KAI's default order. */
  public static final List<String> ACTIONS =
      ImmutableList.of("allocate", "consolidation", "reclaim", "preempt", "stalegangeviction");

  /** Every {@link PlacementStrategy}, by the name a configuration gives it. */
  static final List<String> PLACEMENTS =
      Arrays.stream(PlacementStrategy.values())
          .map(PlacementStrategy::k8sName)
          .collect(ImmutableList.toImmutableList());

  /** The keys of a scenario's {@code config}; the scheduler's file shares them. */
  public static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "actions",
          "cycles",
          "cyclePeriod",
          "placement",
          "plugins",
          "staleGangGracePeriod",
          "maxConsolidationPreemptees",
          "allowConsolidatingReclaim",
          "usage",
          "scenarioSearchBudgets",
          "queueDepthPerAction");

  private static final ImmutableSet<String> USAGE_KEYS =
      ImmutableSet.of("windowSize", "halfLifePeriod", "windowType", "tumblingWindowStartTime");
  private static final List<String> WINDOW_TYPES = ImmutableList.of("sliding", "tumbling");

  private static final ImmutableSet<String> BUDGET_KEYS =
      ImmutableSet.of(
          "maxActionSearchDuration",
          "maxJobSearchDuration",
          "minJobSearchDuration",
          "maxGeneratorSearchDuration");
  private static final ImmutableSet<String> ACTION_BUDGET_KEYS =
      ImmutableSet.of(SearchBudgets.DEFAULT, "reclaim", "preempt", "consolidation");
  private static final ImmutableSet<String> GENERATOR_BUDGET_KEYS =
      ImmutableSet.of(
          SearchBudgets.DEFAULT, SearchBudgets.NODE_LOCAL_GREEDY, SearchBudgets.MULTI_NODE_GANG);

  private static final ImmutableSet<String> PLACEMENT_KEYS = ImmutableSet.of("gpu", "cpu");
  private static final ImmutableSet<String> PLUGIN_KEYS = ImmutableSet.of("enabled", "arguments");

  private ConfigBinder() {}

  public static ConfigSpec bind(Field field) throws ScenarioException {
    return bind(field.asMap(KEYS));
  }

  /** Binds the config keys of a mapping whose other keys the caller checked and reads. */
  public static ConfigSpec bind(MapReader config) throws ScenarioException {
    ImmutableSortedMap.Builder<String, Integer> fieldLines = ImmutableSortedMap.naturalOrder();
    fieldLines.putAll(config.fieldLines());

    Optional<List<String>> actions = Optional.empty();
    Optional<Field> actionsField = config.optional("actions");
    if (actionsField.isPresent()) {
      ImmutableList.Builder<String> names = ImmutableList.builder();
      for (Field action : actionsField.get().asList()) {
        names.add(action.asChoice(ACTIONS));
      }
      actions = Optional.of(names.build());
    }

    Optional<String> gpuPlacement = Optional.empty();
    Optional<String> cpuPlacement = Optional.empty();
    Optional<Field> placementField = config.optional("placement");
    if (placementField.isPresent()) {
      MapReader placement = placementField.get().asMap(PLACEMENT_KEYS);
      gpuPlacement = placement.optChoice("gpu", PLACEMENTS);
      cpuPlacement = placement.optChoice("cpu", PLACEMENTS);
      placement.fieldLines().forEach((key, line) -> fieldLines.put("placement." + key, line));
    }

    return new ConfigSpec(
        actions,
        config.optInt("cycles", 1),
        config.optDuration("cyclePeriod", DurationBound.POSITIVE),
        gpuPlacement,
        cpuPlacement,
        plugins(config.optional("plugins")),
        config.optDuration("staleGangGracePeriod", DurationBound.ANY),
        config.optInt("maxConsolidationPreemptees", -1),
        config.optBoolean("allowConsolidatingReclaim"),
        usage(config.optional("usage"), fieldLines),
        budgets(config.optional("scenarioSearchBudgets")),
        queueDepths(config.optional("queueDepthPerAction")),
        fieldLines.build());
  }

  /**
   * KAI's {@code queueDepthPerAction}: an action's name to the most jobs per leaf queue it
   * considers, -1 for all of them.
   */
  private static ImmutableSortedMap<String, Integer> queueDepths(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, Integer> depths = ImmutableSortedMap.naturalOrder();
    if (field.isEmpty()) {
      return depths.build();
    }
    for (Field entry : field.get().asOpenMap().fields()) {
      if (!ACTIONS.contains(entry.key())) {
        throw entry.error(
            "unknown action " + Field.quote(entry.key()) + "; expected one of " + ACTIONS);
      }
      depths.put(entry.key(), entry.asInt(QueueDepthPerAction.UNLIMITED));
    }
    return depths.build();
  }

  private static Optional<UsageSpec> usage(
      Optional<Field> field, ImmutableSortedMap.Builder<String, Integer> fieldLines)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    MapReader usage = field.get().asMap(USAGE_KEYS);
    usage.fieldLines().forEach((key, line) -> fieldLines.put("usage." + key, line));
    Duration window =
        usage.optDuration("windowSize", DurationBound.POSITIVE).orElse(UsageSpec.DEFAULT_WINDOW);
    return Optional.of(
        new UsageSpec(
            window,
            usage.optDuration("halfLifePeriod", DurationBound.NON_NEGATIVE).orElse(Duration.ZERO),
            usage.optChoice("windowType", WINDOW_TYPES).orElse("sliding").equals("tumbling")
                ? UsageSpec.WindowType.TUMBLING
                : UsageSpec.WindowType.SLIDING,
            usage.optDuration("tumblingWindowStartTime", DurationBound.ANY).orElse(Duration.ZERO)));
  }

  /** KAI's {@code scenarioSearchBudgets}; a key left out takes KAI's default. */
  private static Optional<SearchBudgets> budgets(Optional<Field> field) throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    MapReader budgets = field.get().asMap(BUDGET_KEYS);
    SearchBudgets defaults = SearchBudgets.DEFAULTS;
    Duration maxJob =
        budgets
            .optDuration("maxJobSearchDuration", DurationBound.NON_NEGATIVE)
            .orElse(defaults.maxJobSearchDuration());
    Duration minJob =
        budgets
            .optDuration("minJobSearchDuration", DurationBound.NON_NEGATIVE)
            .orElse(defaults.minJobSearchDuration());
    if (!maxJob.isZero() && minJob.compareTo(maxJob) >= 0) {
      Optional<Field> min = budgets.optional("minJobSearchDuration");
      Field at = min.isPresent() ? min.get() : budgets.required("maxJobSearchDuration");
      throw at.error("minJobSearchDuration must be less than maxJobSearchDuration");
    }
    return Optional.of(
        new SearchBudgets(
            durations(budgets.optional("maxActionSearchDuration"), ACTION_BUDGET_KEYS),
            maxJob,
            minJob,
            durations(budgets.optional("maxGeneratorSearchDuration"), GENERATOR_BUDGET_KEYS)));
  }

  private static ImmutableSortedMap<String, Duration> durations(
      Optional<Field> field, ImmutableSet<String> keys) throws ScenarioException {
    ImmutableSortedMap.Builder<String, Duration> out = ImmutableSortedMap.naturalOrder();
    if (field.isPresent()) {
      MapReader map = field.get().asMap(keys);
      for (String key : keys) {
        Optional<Duration> d = map.optDuration(key, DurationBound.NON_NEGATIVE);
        if (d.isPresent()) {
          out.put(key, d.get());
        }
      }
    }
    return out.build();
  }

  /**
   * Plugin names are not checked here: only the plugin registry knows them, and it reports an
   * unknown one with the line kept in {@link PluginSpec#line()}.
   */
  private static ImmutableSortedMap<String, PluginSpec> plugins(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, PluginSpec> plugins = ImmutableSortedMap.naturalOrder();
    if (field.isEmpty()) {
      return plugins.build();
    }
    for (Field pluginField : field.get().asOpenMap().fields()) {
      MapReader plugin = pluginField.asMap(PLUGIN_KEYS);
      ImmutableSortedMap.Builder<String, Object> arguments = ImmutableSortedMap.naturalOrder();
      Optional<Field> argumentsField = plugin.optional("arguments");
      if (argumentsField.isPresent()) {
        for (Field argument : argumentsField.get().asOpenMap().fields()) {
          arguments.put(argument.key(), argument.asScalarValue());
        }
      }
      plugins.put(
          pluginField.key(),
          new PluginSpec(plugin.optBoolean("enabled"), arguments.build(), pluginField.line()));
    }
    return plugins.build();
  }
}
