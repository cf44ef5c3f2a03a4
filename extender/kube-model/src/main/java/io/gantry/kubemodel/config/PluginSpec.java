package io.gantry.kubemodel.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * One entry of {@code config.plugins}. Arguments stay raw here (String, Long, Double or Boolean, as
 * YAML typed them) because only the plugin registry knows each plugin's typed argument record.
 */
public record PluginSpec(
    Optional<Boolean> enabled, ImmutableSortedMap<String, Object> arguments, int line) {
  public PluginSpec {
    requireNonNull(enabled, "enabled is null");
    requireNonNull(arguments, "arguments is null");
  }
}
