package io.gantry.kubemodel.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The scheduler file's {@code usageDBConfig} (kai-reference §2.5, §5.4): where time-based fair
 * share reads each queue's historical usage. Only KAI's {@code prometheus} client type exists.
 *
 * @param connectionString the Prometheus base URL, when the file gives it
 * @param connectionStringEnvVar the environment variable holding the URL, when the file names one
 * @param tumblingWindowStartTime where tumbling windows start counting; the Unix epoch when unset
 * @param queryTimeout KAI's {@code extraParams.usageQueryTimeout}: how long one fetch may take
 * @param queryResolution KAI's {@code extraParams.queryResolution}: the step of the windowed sums
 * @param metrics KAI's metric overrides from {@code extraParams}: {@code gpuAllocationMetric},
 *     {@code cpuAllocationMetric}, {@code memoryAllocationMetric}, {@code gpuCapacityMetric},
 *     {@code cpuCapacityMetric}, {@code memoryCapacityMetric} (PromQL expressions)
 */
public record UsageDbSpec(
    Optional<String> connectionString,
    Optional<String> connectionStringEnvVar,
    Duration windowSize,
    Duration halfLifePeriod,
    UsageSpec.WindowType windowType,
    Optional<Instant> tumblingWindowStartTime,
    Duration fetchInterval,
    Duration stalenessPeriod,
    Duration waitTimeout,
    Duration queryTimeout,
    Duration queryResolution,
    ImmutableSortedMap<String, String> metrics) {

  /** KAI's defaults. */
  public static final Duration DEFAULT_FETCH_INTERVAL = Duration.ofMinutes(1);

  public static final Duration DEFAULT_STALENESS_PERIOD = Duration.ofMinutes(5);
  public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofMinutes(1);
  public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_QUERY_RESOLUTION = Duration.ofMinutes(1);

  public UsageDbSpec {
    requireNonNull(connectionString, "connectionString is null");
    requireNonNull(connectionStringEnvVar, "connectionStringEnvVar is null");
    requireNonNull(windowSize, "windowSize is null");
    requireNonNull(halfLifePeriod, "halfLifePeriod is null");
    requireNonNull(windowType, "windowType is null");
    requireNonNull(tumblingWindowStartTime, "tumblingWindowStartTime is null");
    requireNonNull(fetchInterval, "fetchInterval is null");
    requireNonNull(stalenessPeriod, "stalenessPeriod is null");
    requireNonNull(waitTimeout, "waitTimeout is null");
    requireNonNull(queryTimeout, "queryTimeout is null");
    requireNonNull(queryResolution, "queryResolution is null");
    requireNonNull(metrics, "metrics is null");
  }
}
