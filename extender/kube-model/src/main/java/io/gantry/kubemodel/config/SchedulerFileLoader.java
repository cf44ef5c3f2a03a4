package io.gantry.kubemodel.config;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.DurationBound;
import io.gantry.kubemodel.read.LocatedNode;
import io.gantry.kubemodel.read.LocatedNode.MapNode;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.ScenarioFileReader;
import io.gantry.kubemodel.read.YamlTreeReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * Loads the scheduler's configuration file. It is a flat YAML mapping with the keys of a scenario's
 * {@code config} — {@code actions}, {@code placement}, {@code plugins}, {@code
 * queueDepthPerAction}, {@code scenarioSearchBudgets}, bound by the same code, so the two can never
 * drift apart — and the scheduler's own: {@code schedulerName}, {@code schedulePeriod}, {@code
 * queueLabelKey}, {@code nodePoolLabelKey}, {@code nodePoolLabelValue}, {@code leaderElection},
 * {@code bindConcurrency}, {@code statusWritesPerSecond}, {@code eventsPerSecond}, {@code
 * usageDBConfig}, {@code gpuSharing}. What the engine does not support yet (cron usage windows) and
 * what only a simulation has ({@code cycles}, {@code cyclePeriod}, {@code usage}) is an error
 * naming the key and its line.
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
          "usageDBConfig",
          "defaultPrioritiesConfigMapName",
          "defaultPrioritiesConfigMapNamespace",
          "gpuSharing");
  private static final ImmutableSet<String> GPU_SHARING_KEYS =
      ImmutableSet.of(
          "mode",
          "reservationNamespace",
          "reservationTimeout",
          "reservationImage",
          "reservationServiceAccount",
          "runtimeClassName",
          "scalingPods",
          "scalingNamespace",
          "scalingImage");
  private static final ImmutableSet<String> LEADER_KEYS =
      ImmutableSet.of(
          "enabled", "namespace", "leaseName", "leaseDuration", "renewDeadline", "retryPeriod");

  private static final ImmutableSet<String> USAGE_DB_KEYS =
      ImmutableSet.of("clientType", "connectionString", "connectionStringEnvVar", "usageParams");
  private static final ImmutableSet<String> USAGE_PARAM_KEYS =
      ImmutableSet.of(
          "halfLifePeriod",
          "windowSize",
          "windowType",
          "tumblingWindowStartTime",
          "cronString",
          "fetchInterval",
          "stalenessPeriod",
          "waitTimeout",
          "extraParams");

  /** KAI's {@code extraParams}: two durations and the metric overrides. */
  public static final ImmutableSet<String> EXTRA_PARAM_KEYS =
      ImmutableSet.of(
          "usageQueryTimeout",
          "queryResolution",
          "gpuAllocationMetric",
          "cpuAllocationMetric",
          "memoryAllocationMetric",
          "gpuCapacityMetric",
          "cpuCapacityMetric",
          "memoryCapacityMetric");

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
    Optional<String> defaultsName = nonEmpty(top, "defaultPrioritiesConfigMapName");
    Optional<String> defaultsNamespace = nonEmpty(top, "defaultPrioritiesConfigMapNamespace");
    if (defaultsName.isPresent() != defaultsNamespace.isPresent()) {
      String given =
          defaultsName.isPresent()
              ? "defaultPrioritiesConfigMapName"
              : "defaultPrioritiesConfigMapNamespace";
      throw top.required(given)
          .error(
              "defaultPrioritiesConfigMapName and defaultPrioritiesConfigMapNamespace go"
                  + " together");
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
        usageDb(top.optional("usageDBConfig"), lines),
        defaultsNamespace,
        defaultsName,
        gpuSharing(top.optional("gpuSharing"), lines),
        lines.build());
  }

  private static Optional<String> nonEmpty(MapReader map, String key) throws ScenarioException {
    Optional<Field> f = map.optional(key);
    return f.isPresent() ? Optional.of(f.get().asNonEmptyString()) : Optional.empty();
  }

  /** The {@code gpuSharing} block; each key absent takes {@link GpuSharingSpec#DEFAULTS}' value. */
  private static GpuSharingSpec gpuSharing(
      Optional<Field> field, ImmutableSortedMap.Builder<String, Integer> lines)
      throws ScenarioException {
    if (field.isEmpty()) {
      return GpuSharingSpec.DEFAULTS;
    }
    MapReader m = field.get().asMap(GPU_SHARING_KEYS);
    m.fieldLines().forEach((k, line) -> lines.put("gpuSharing." + k, line));
    GpuSharingSpec d = GpuSharingSpec.DEFAULTS;
    Optional<Field> mode = m.optional("mode");
    Optional<Field> runtimeClass = m.optional("runtimeClassName");
    return new GpuSharingSpec(
        mode.isPresent()
            ? mode.get().asEnum(GpuSharingMode.values(), GpuSharingMode::yamlName)
            : d.mode(),
        nonEmpty(m, "reservationNamespace").orElse(d.reservationNamespace()),
        m.optDuration("reservationTimeout", DurationBound.POSITIVE).orElse(d.reservationTimeout()),
        nonEmpty(m, "reservationImage").orElse(d.reservationImage()),
        nonEmpty(m, "reservationServiceAccount").orElse(d.reservationServiceAccount()),
        // an empty runtimeClassName means the cluster's default runtime
        runtimeClass.isPresent()
            ? Optional.of(runtimeClass.get().asString()).filter(s -> !s.isEmpty())
            : d.runtimeClassName(),
        m.booleanOr("scalingPods", d.scalingPods()),
        nonEmpty(m, "scalingNamespace").orElse(d.scalingNamespace()),
        nonEmpty(m, "scalingImage").orElse(d.scalingImage()));
  }

  /** KAI's {@code usageDBConfig}; only the {@code prometheus} client exists. */
  private static Optional<UsageDbSpec> usageDb(
      Optional<Field> field, ImmutableSortedMap.Builder<String, Integer> lines)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    MapReader db = field.get().asMap(USAGE_DB_KEYS);
    db.fieldLines().forEach((k, line) -> lines.put("usageDBConfig." + k, line));
    db.required("clientType").asChoice(List.of("prometheus"));
    Optional<String> url = nonEmpty(db, "connectionString");
    Optional<String> envVar = nonEmpty(db, "connectionStringEnvVar");
    if (url.isEmpty() && envVar.isEmpty()) {
      throw field.get().error("needs connectionString or connectionStringEnvVar");
    }
    Optional<Field> paramsField = db.optional("usageParams");
    MapReader params = paramsField.isPresent() ? paramsField.get().asMap(USAGE_PARAM_KEYS) : null;
    if (params == null) {
      return Optional.of(
          new UsageDbSpec(
              url,
              envVar,
              UsageSpec.DEFAULT_WINDOW,
              Duration.ZERO,
              UsageSpec.WindowType.SLIDING,
              Optional.empty(),
              UsageDbSpec.DEFAULT_FETCH_INTERVAL,
              UsageDbSpec.DEFAULT_STALENESS_PERIOD,
              UsageDbSpec.DEFAULT_WAIT_TIMEOUT,
              UsageDbSpec.DEFAULT_QUERY_TIMEOUT,
              UsageDbSpec.DEFAULT_QUERY_RESOLUTION,
              ImmutableSortedMap.of()));
    }
    Optional<Field> cron = params.optional("cronString");
    if (cron.isPresent()) {
      throw cron.get().error("cron usage windows are not supported yet");
    }
    String windowType =
        params.optChoice("windowType", List.of("sliding", "tumbling", "cron")).orElse("sliding");
    if (windowType.equals("cron")) {
      throw params.required("windowType").error("cron usage windows are not supported yet");
    }
    Optional<Instant> tumblingStart = Optional.empty();
    Optional<Field> startField = params.optional("tumblingWindowStartTime");
    if (startField.isPresent()) {
      String text = startField.get().asNonEmptyString();
      try {
        tumblingStart = Optional.of(OffsetDateTime.parse(text).toInstant());
      } catch (DateTimeParseException e) {
        throw startField.get().error("expected an RFC 3339 time, got " + Field.quote(text));
      }
    }
    Duration queryTimeout = UsageDbSpec.DEFAULT_QUERY_TIMEOUT;
    Duration queryResolution = UsageDbSpec.DEFAULT_QUERY_RESOLUTION;
    ImmutableSortedMap.Builder<String, String> metrics = ImmutableSortedMap.naturalOrder();
    Optional<Field> extraField = params.optional("extraParams");
    if (extraField.isPresent()) {
      MapReader extra = extraField.get().asMap(EXTRA_PARAM_KEYS);
      queryTimeout =
          extra.optDuration("usageQueryTimeout", DurationBound.POSITIVE).orElse(queryTimeout);
      queryResolution =
          extra.optDuration("queryResolution", DurationBound.POSITIVE).orElse(queryResolution);
      for (String key : EXTRA_PARAM_KEYS) {
        if (key.endsWith("Metric")) {
          Optional<String> metric = nonEmpty(extra, key);
          if (metric.isPresent()) {
            metrics.put(key, metric.get());
          }
        }
      }
    }
    return Optional.of(
        new UsageDbSpec(
            url,
            envVar,
            params
                .optDuration("windowSize", DurationBound.POSITIVE)
                .orElse(UsageSpec.DEFAULT_WINDOW),
            params.optDuration("halfLifePeriod", DurationBound.NON_NEGATIVE).orElse(Duration.ZERO),
            windowType.equals("tumbling")
                ? UsageSpec.WindowType.TUMBLING
                : UsageSpec.WindowType.SLIDING,
            tumblingStart,
            params
                .optDuration("fetchInterval", DurationBound.POSITIVE)
                .orElse(UsageDbSpec.DEFAULT_FETCH_INTERVAL),
            params
                .optDuration("stalenessPeriod", DurationBound.POSITIVE)
                .orElse(UsageDbSpec.DEFAULT_STALENESS_PERIOD),
            params
                .optDuration("waitTimeout", DurationBound.NON_NEGATIVE)
                .orElse(UsageDbSpec.DEFAULT_WAIT_TIMEOUT),
            queryTimeout,
            queryResolution,
            metrics.build()));
  }

  private static void rejectUnsupported(MapReader top) throws ScenarioException {
    for (String simulationOnly : new String[] {"cycles", "cyclePeriod"}) {
      Optional<Field> f = top.optional(simulationOnly);
      if (f.isPresent()) {
        throw f.get().error("only a simulation has cycles; a scheduler runs every schedulePeriod");
      }
    }
    Optional<Field> usage = top.optional("usage");
    if (usage.isPresent()) {
      throw usage
          .get()
          .error(
              "only a simulation computes usage from its own history; a scheduler reads it from"
                  + " Prometheus (usageDBConfig)");
    }
  }
}
