package io.gantry.kubemodel.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A loaded scheduler configuration file ({@code gantry scheduler --config}): the keys it shares
 * with a scenario's {@code config} ({@code actions}, {@code placement}, {@code plugins}) in {@code
 * config}, and the scheduler's own; every field optional, an absent one means the default.
 *
 * @param usageDb time-based fair share's usage database ({@code usageDBConfig}); off when empty
 * @param defaultPrioritiesConfigMapNamespace with {@code defaultPrioritiesConfigMapName}, KAI's
 *     ConfigMap of default priority classes and preemptibility per workload type; none when empty
 * @param gpuSharing how fraction pods get their GPU ({@code gpuSharing}); reservation pods when
 *     absent
 * @param fieldLines each top-level key present (plus {@code leaderElection.*}, {@code
 *     usageDBConfig.*} and {@code gpuSharing.*}) and its line
 */
public record SchedulerFileSpec(
    String sourceName,
    ConfigSpec config,
    Optional<String> schedulerName,
    Optional<Duration> schedulePeriod,
    Optional<String> queueLabelKey,
    Optional<String> nodePoolLabelKey,
    Optional<String> nodePoolLabelValue,
    Optional<Boolean> leaderElect,
    Optional<String> leaseNamespace,
    Optional<String> leaseName,
    Optional<Duration> leaseDuration,
    Optional<Duration> renewDeadline,
    Optional<Duration> retryPeriod,
    OptionalInt bindConcurrency,
    OptionalDouble statusWritesPerSecond,
    OptionalDouble eventsPerSecond,
    Optional<UsageDbSpec> usageDb,
    Optional<String> defaultPrioritiesConfigMapNamespace,
    Optional<String> defaultPrioritiesConfigMapName,
    GpuSharingSpec gpuSharing,
    ImmutableSortedMap<String, Integer> fieldLines) {
  public SchedulerFileSpec {
    requireNonNull(sourceName, "sourceName is null");
    requireNonNull(config, "config is null");
    requireNonNull(usageDb, "usageDb is null");
    requireNonNull(
        defaultPrioritiesConfigMapNamespace, "defaultPrioritiesConfigMapNamespace is null");
    requireNonNull(defaultPrioritiesConfigMapName, "defaultPrioritiesConfigMapName is null");
    requireNonNull(gpuSharing, "gpuSharing is null");
    requireNonNull(fieldLines, "fieldLines is null");
  }

  /** The configuration of a scheduler started without a file. */
  public static SchedulerFileSpec defaults() {
    return new SchedulerFileSpec(
        "(defaults)",
        ConfigSpec.EMPTY,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        OptionalInt.empty(),
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        GpuSharingSpec.DEFAULTS,
        ImmutableSortedMap.of());
  }

  /** The line of a key ({@code plugins.proportion.arguments.kValue} is on its plugin's line). */
  public int line(String key) {
    String[] parts = key.split("\\.", -1);
    if (parts[0].equals("plugins") && parts.length > 1) {
      PluginSpec plugin = config.plugins().get(parts[1]);
      if (plugin != null) {
        return plugin.line();
      }
    }
    Integer exact = fieldLines.get(key);
    if (exact != null) {
      return exact;
    }
    Integer inConfig = config.fieldLines().get(key);
    if (inConfig != null) {
      return inConfig;
    }
    return fieldLines.getOrDefault(parts[0], config.fieldLines().getOrDefault(parts[0], 0));
  }
}
