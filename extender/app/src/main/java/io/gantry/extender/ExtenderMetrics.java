package io.gantry.extender;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The extender's Prometheus metrics: {@code gantry_extender_request_seconds} (histogram, label
 * {@code verb}), {@code gantry_extender_errors_total} (label {@code code}: each 4xx/5xx answered),
 * {@code gantry_extender_reservations_expired_total}, {@code gantry_extender_plans_total} (engine
 * cycles run to plan), {@code gantry_extender_tls_reload_failures_total} (changed certificate files
 * that did not load) and the gauge {@code gantry_extender_reservations}.
 */
public final class ExtenderMetrics {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<Verb, Timer> verbs = new ConcurrentHashMap<>();
  private final Map<Integer, Counter> errors = new ConcurrentHashMap<>();
  private final Counter expired =
      Counter.builder("gantry_extender_reservations_expired")
          .description("gang reservations that expired before their pods were bound")
          .register(registry);
  private final Counter plans =
      Counter.builder("gantry_extender_plans")
          .description("scheduling cycles the extender ran to plan pods")
          .register(registry);
  private final Counter tlsReloadFailures =
      Counter.builder("gantry_extender_tls_reload_failures")
          .description("changed TLS certificate or key files that did not load")
          .register(registry);

  void reservations(Supplier<Number> outstanding) {
    Gauge.builder("gantry_extender_reservations", outstanding)
        .description("pods with capacity reserved")
        .register(registry);
  }

  void request(Verb verb, Duration took) {
    verbs
        .computeIfAbsent(
            verb,
            v ->
                Timer.builder("gantry_extender_request")
                    .description("one extender request, read to answered")
                    .tag("verb", v.pathSegment())
                    .publishPercentileHistogram()
                    .register(registry))
        .record(took);
  }

  void error(int status) {
    errors
        .computeIfAbsent(
            status,
            s ->
                Counter.builder("gantry_extender_errors")
                    .description("requests answered with an error status")
                    .tag("code", Integer.toString(s))
                    .register(registry))
        .increment();
  }

  void expired(int count) {
    expired.increment(count);
  }

  void planned() {
    plans.increment();
  }

  void tlsReloadFailed() {
    tlsReloadFailures.increment();
  }

  public double tlsReloadFailureCount() {
    return tlsReloadFailures.count();
  }

  public double expiredCount() {
    return expired.count();
  }

  public double planCount() {
    return plans.count();
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }
}
