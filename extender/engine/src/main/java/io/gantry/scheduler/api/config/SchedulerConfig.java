package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Map;

/**
 * One scheduler configuration, the same for every front door: the actions in the order they run,
 * plugin settings merged onto KAI's defaults by name, and the placement strategy. Validated when a
 * cycle is built from it ({@link io.gantry.scheduler.api.SchedulerWiring#cycle}), which throws
 * {@link ConfigException} naming the key.
 */
public record SchedulerConfig(
    ImmutableList<String> actions,
    ImmutableSortedMap<String, PluginSetting> plugins,
    Placement placement) {

  /** The actions this build implements, in KAI's order. */
  public static final ImmutableList<String> DEFAULT_ACTIONS = ImmutableList.of("allocate");

  public static final SchedulerConfig DEFAULTS =
      new SchedulerConfig(DEFAULT_ACTIONS, ImmutableSortedMap.of(), Placement.DEFAULTS);

  public SchedulerConfig {
    requireNonNull(actions, "actions is null");
    requireNonNull(plugins, "plugins is null");
    requireNonNull(placement, "placement is null");
  }

  public static SchedulerConfig of(
      List<String> actions, Map<String, PluginSetting> plugins, Placement placement) {
    return new SchedulerConfig(
        ImmutableList.copyOf(actions), ImmutableSortedMap.copyOf(plugins), placement);
  }
}
