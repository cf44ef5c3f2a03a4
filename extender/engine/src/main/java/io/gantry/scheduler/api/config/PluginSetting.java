package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * One entry of a scheduler's plugin configuration, merged onto the defaults by name: enable or
 * disable the plugin, and replace its arguments wholesale (KAI's SchedulingShard semantics).
 */
public record PluginSetting(
    Optional<Boolean> enabled, ImmutableSortedMap<String, Object> arguments) {
  public PluginSetting {
    requireNonNull(enabled, "enabled is null");
    requireNonNull(arguments, "arguments is null");
  }
}
