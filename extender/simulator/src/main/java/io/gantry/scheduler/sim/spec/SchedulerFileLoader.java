package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.sim.spec.Field.DurationBound;
import io.gantry.scheduler.sim.spec.LocatedNode.MapNode;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Loads the scheduler's configuration file. It is a flat YAML mapping with the keys of a scenario's
 * {@code config} — {@code actions}, {@code placement}, {@code plugins}, bound by the same code, so
 * the two can never drift apart — and the scheduler's own: {@code schedulerName}, {@code
 * schedulePeriod}, {@code queueLabelKey}, {@code nodePoolLabelKey}, {@code nodePoolLabelValue},
 * {@code leaderElection}, {@code bindConcurrency}, {@code statusWritesPerSecond}, {@code
 * eventsPerSecond}. What the engine does not support yet ({@code queueDepthPerAction}, {@code
 * usage}) and what only a simulation has ({@code cycles}, {@code cyclePeriod}) is an error naming
 * the key and its line.
 */
public final class SchedulerFileLoader {
  private static final ImmutableSet<String> OWN_KEYS =
      ImmutableSet.of(
          "schedulerName",
          "schedulePeriod",
          "queueLabelKey",
          "nodePoolLabelKey",
          "nodePoolLabelValue",
          "leaderElection",
          "bindConcurrency",
          "statusWritesPerSecond",
          "eventsPerSecond",
          "queueDepthPerAction");
  private static final ImmutableSet<String> LEADER_KEYS =
      ImmutableSet.of(
          "enabled", "namespace", "leaseName", "leaseDuration", "renewDeadline", "retryPeriod");

  private SchedulerFileLoader() {}

  public static SchedulerFileSpec load(Path file) throws ScenarioException {
    return parse(file.toString(), ScenarioFileReader.read(file));
  }

  public static SchedulerFileSpec parse(String sourceName, String text) throws ScenarioException {
    LocatedNode root = YamlTreeReader.read(sourceName, text);
    if (!(root instanceof MapNode)) {
      throw new ScenarioException(
          sourceName, 1, "", "expected a mapping at the top level, got " + Field.describe(root));
    }
    MapReader top =
        Field.root(sourceName, root)
            .asMap(
                ImmutableSet.<String>builder().addAll(ConfigBinder.KEYS).addAll(OWN_KEYS).build());
    rejectUnsupported(top);
    ConfigSpec config = ConfigBinder.bind(top);
    ImmutableSortedMap.Builder<String, Integer> lines = ImmutableSortedMap.naturalOrder();
    lines.putAll(top.fieldLines());
    Optional<Field> leaderField = top.optional("leaderElection");
    MapReader leader = null;
    if (leaderField.isPresent()) {
      leader = leaderField.get().asMap(LEADER_KEYS);
      leader.fieldLines().forEach((k, line) -> lines.put("leaderElection." + k, line));
    }
    Optional<String> poolKey = nonEmpty(top, "nodePoolLabelKey");
    Optional<String> poolValue = nonEmpty(top, "nodePoolLabelValue");
    if (poolValue.isPresent() && poolKey.isEmpty()) {
      throw top.required("nodePoolLabelValue").error("requires nodePoolLabelKey");
    }
    return new SchedulerFileSpec(
        sourceName,
        config,
        nonEmpty(top, "schedulerName"),
        top.optDuration("schedulePeriod", DurationBound.POSITIVE),
        nonEmpty(top, "queueLabelKey"),
        poolKey,
        poolValue,
        leader == null ? Optional.empty() : leader.optBoolean("enabled"),
        leader == null ? Optional.empty() : nonEmpty(leader, "namespace"),
        leader == null ? Optional.empty() : nonEmpty(leader, "leaseName"),
        leader == null
            ? Optional.empty()
            : leader.optDuration("leaseDuration", DurationBound.POSITIVE),
        leader == null
            ? Optional.empty()
            : leader.optDuration("renewDeadline", DurationBound.POSITIVE),
        leader == null
            ? Optional.empty()
            : leader.optDuration("retryPeriod", DurationBound.POSITIVE),
        top.optInt("bindConcurrency", 1),
        top.optDouble("statusWritesPerSecond", Double.MIN_VALUE),
        top.optDouble("eventsPerSecond", Double.MIN_VALUE),
        lines.build());
  }

  private static Optional<String> nonEmpty(MapReader map, String key) throws ScenarioException {
    Optional<Field> f = map.optional(key);
    return f.isPresent() ? Optional.of(f.get().asNonEmptyString()) : Optional.empty();
  }

  private static void rejectUnsupported(MapReader top) throws ScenarioException {
    for (String simulationOnly : new String[] {"cycles", "cyclePeriod"}) {
      Optional<Field> f = top.optional(simulationOnly);
      if (f.isPresent()) {
        throw f.get().error("only a simulation has cycles; a scheduler runs every schedulePeriod");
      }
    }
    notSupported(top, "usage", "time-based fair share from Prometheus");
    notSupported(top, "queueDepthPerAction", "a per-action queue depth");
  }

  private static void notSupported(MapReader top, String key, String feature)
      throws ScenarioException {
    Optional<Field> f = top.optional(key);
    if (f.isPresent()) {
      throw f.get().error(feature + " is not supported yet");
    }
  }
}
