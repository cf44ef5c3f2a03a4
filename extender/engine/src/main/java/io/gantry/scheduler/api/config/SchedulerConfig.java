package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Map;

/**
 * One scheduler configuration, the same for every front door: the actions in the order they run,
 * plugin settings merged onto KAI's defaults by name, the placement strategy, the eviction actions'
 * settings, and how many jobs per queue each action considers. Validated when a cycle is built from
 * it ({@link io.gantry.scheduler.cycle.SchedulerWiring#cycle}), which throws {@link
 * ConfigException} naming the key.
 */
public record SchedulerConfig(
    ImmutableList<String> actions,
    ImmutableSortedMap<String, PluginSetting> plugins,
    Placement placement,
    EvictionSettings evictions,
    QueueDepthPerAction queueDepthPerAction) {

  /** KAI's actions in KAI's order (kai-reference §2.5, §2.7). */
  public static final ImmutableList<String> DEFAULT_ACTIONS =
      ImmutableList.of("allocate", "consolidation", "reclaim", "preempt", "stalegangeviction");

  public static final SchedulerConfig DEFAULTS =
      new SchedulerConfig(
          DEFAULT_ACTIONS,
          ImmutableSortedMap.of(),
          Placement.DEFAULTS,
          EvictionSettings.DEFAULTS,
          QueueDepthPerAction.NONE);

  public SchedulerConfig {
    requireNonNull(actions, "actions is null");
    requireNonNull(plugins, "plugins is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(evictions, "evictions is null");
    requireNonNull(queueDepthPerAction, "queueDepthPerAction is null");
  }

  /** A configuration without a per-action queue depth. */
  public SchedulerConfig(
      ImmutableList<String> actions,
      ImmutableSortedMap<String, PluginSetting> plugins,
      Placement placement,
      EvictionSettings evictions) {
    this(actions, plugins, placement, evictions, QueueDepthPerAction.NONE);
  }

  /** A configuration with KAI's default eviction settings. */
  public SchedulerConfig(
      ImmutableList<String> actions,
      ImmutableSortedMap<String, PluginSetting> plugins,
      Placement placement) {
    this(actions, plugins, placement, EvictionSettings.DEFAULTS, QueueDepthPerAction.NONE);
  }

  /** This configuration with {@code depths} as its {@code queueDepthPerAction}. */
  public SchedulerConfig withQueueDepthPerAction(QueueDepthPerAction depths) {
    return new SchedulerConfig(actions, plugins, placement, evictions, depths);
  }

  public static SchedulerConfig of(
      List<String> actions, Map<String, PluginSetting> plugins, Placement placement) {
    return new SchedulerConfig(
        ImmutableList.copyOf(actions), ImmutableSortedMap.copyOf(plugins), placement);
  }

  public static SchedulerConfig of(
      List<String> actions,
      Map<String, PluginSetting> plugins,
      Placement placement,
      EvictionSettings evictions) {
    return new SchedulerConfig(
        ImmutableList.copyOf(actions), ImmutableSortedMap.copyOf(plugins), placement, evictions);
  }
}
