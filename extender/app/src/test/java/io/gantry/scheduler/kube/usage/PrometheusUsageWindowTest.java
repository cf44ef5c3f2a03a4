package io.gantry.scheduler.kube.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.config.UsageDbSpec;
import io.gantry.kubemodel.config.UsageSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How far back the windowed sums reach; no server needed. */
class PrometheusUsageWindowTest {
  private static final Instant T = Instant.parse("2025-01-01T12:34:00Z");

  private static PrometheusUsage usage(UsageSpec.WindowType type, Optional<Instant> start) {
    UsageDbSpec spec =
        new UsageDbSpec(
            Optional.of("http://127.0.0.1:1"),
            Optional.empty(),
            Duration.ofHours(1),
            Duration.ZERO,
            type,
            start,
            UsageDbSpec.DEFAULT_FETCH_INTERVAL,
            UsageDbSpec.DEFAULT_STALENESS_PERIOD,
            UsageDbSpec.DEFAULT_WAIT_TIMEOUT,
            UsageDbSpec.DEFAULT_QUERY_TIMEOUT,
            UsageDbSpec.DEFAULT_QUERY_RESOLUTION,
            ImmutableSortedMap.of());
    return new PrometheusUsage(
        new PrometheusClient(
            URI.create("http://127.0.0.1:1"), HttpClient.newHttpClient(), Duration.ofSeconds(1)),
        spec);
  }

  @Test
  void aSlidingWindowIsTheWindowSize() {
    assertThat(usage(UsageSpec.WindowType.SLIDING, Optional.empty()).window(T))
        .contains(Duration.ofHours(1));
  }

  @Test
  void aTumblingWindowReachesBackToTheLastReset() {
    assertThat(usage(UsageSpec.WindowType.TUMBLING, Optional.empty()).window(T))
        .contains(Duration.ofMinutes(34));
    assertThat(
            usage(UsageSpec.WindowType.TUMBLING, Optional.of(Instant.parse("2025-01-01T12:30:00Z")))
                .window(T))
        .contains(Duration.ofMinutes(4));
    assertThat(
            usage(UsageSpec.WindowType.TUMBLING, Optional.of(Instant.parse("2025-01-02T00:04:00Z")))
                .window(T))
        .contains(Duration.ofMinutes(30));
  }

  @Test
  void aTumblingWindowAtItsResetIsEmpty() {
    assertThat(
            usage(UsageSpec.WindowType.TUMBLING, Optional.of(Instant.parse("2025-01-01T10:34:00Z")))
                .window(T))
        .isEmpty();
  }
}
