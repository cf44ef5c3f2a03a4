package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.GoDuration;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads typed values out of a plugin's raw arguments, failing with the plugin and key named. */
final class PluginArguments {
  private final String plugin;
  private final Map<String, Object> raw;
  private final Set<String> used = new TreeSet<>();

  PluginArguments(String plugin, Map<String, Object> raw) {
    this.plugin = plugin;
    this.raw = raw;
  }

  /** The value of the first key present among {@code keys} (KAI spelling aliases). */
  double number(double fallback, String... keys) {
    for (String key : keys) {
      if (raw.containsKey(key)) {
        used.add(key);
        Object v = raw.get(key);
        if (v instanceof Number n) {
          return n.doubleValue();
        }
        if (v instanceof String s) {
          try {
            return Double.parseDouble(s);
          } catch (NumberFormatException e) {
            throw fail(key, "expected a number, got \"" + s + "\"");
          }
        }
        throw fail(key, "expected a number, got " + v);
      }
    }
    return fallback;
  }

  /** A Go duration ({@code 30s}, {@code 10m}), as KAI's plugin arguments write them. */
  Duration duration(Duration fallback, String key) {
    if (!raw.containsKey(key)) {
      return fallback;
    }
    String text = string("", key);
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw fail(key, e.getMessage());
    }
  }

  String string(String fallback, String key) {
    if (!raw.containsKey(key)) {
      return fallback;
    }
    used.add(key);
    Object v = raw.get(key);
    if (v instanceof String s) {
      return s;
    }
    throw fail(key, "expected a string, got " + v);
  }

  /** Every given key must have been read: a typo must not fall back to a default silently. */
  void requireAllUsed() {
    for (String key : new TreeSet<>(raw.keySet())) {
      if (!used.contains(key)) {
        throw fail(key, "unknown argument of plugin " + plugin);
      }
    }
  }

  ConfigException fail(String key, String what) {
    return new ConfigException("plugins." + plugin + ".arguments." + key, what);
  }
}
