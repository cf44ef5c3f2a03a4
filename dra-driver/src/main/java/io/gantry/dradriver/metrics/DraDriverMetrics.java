package io.gantry.dradriver.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The DRA driver's meters on its {@code /metrics}, every name under {@value #PREFIX} (Prometheus
 * form {@code gantry_dra_driver_…}) and labelled with the driver's {@code node}; not renamed by a
 * metrics namespace (KAI has no node metrics to match). docs/observability.md lists them:
 *
 * <ul>
 *   <li>the node's ResourceSlice: publications by result, the devices it holds and its pool
 *       generation;
 *   <li>the kubelet's calls: {@code NodePrepareResources} and {@code NodeUnprepareResources} by
 *       latency, their claims by result, and the claims prepared now;
 *   <li>CDI spec files written, by result.
 * </ul>
 *
 * Thread-safe.
 */
public final class DraDriverMetrics {
  /** Every meter's name starts with this. */
  public static final String PREFIX = "gantry.dra.driver.";

  /** The kubelet's call that prepares claims. */
  public static final String PREPARE = "NodePrepareResources";

  /** The kubelet's call that unprepares claims. */
  public static final String UNPREPARE = "NodeUnprepareResources";

  private final MeterRegistry registry;
  private final Tags node;
  private final AtomicLong publishedDevices = new AtomicLong();
  private final AtomicLong poolGeneration = new AtomicLong();
  private final AtomicLong preparedClaims = new AtomicLong();

  public DraDriverMetrics(MeterRegistry registry, String nodeName) {
    this.registry = requireNonNull(registry, "registry is null");
    this.node = Tags.of("node", requireNonNull(nodeName, "nodeName is null"));
    Gauge.builder(PREFIX + "published.devices", publishedDevices, AtomicLong::get)
        .description("Devices in the node's ResourceSlice as last published")
        .tags(node)
        .strongReference(true)
        .register(registry);
    Gauge.builder(PREFIX + "resourceslice.generation", poolGeneration, AtomicLong::get)
        .description("The pool generation of the node's ResourceSlice as last published")
        .tags(node)
        .strongReference(true)
        .register(registry);
    Gauge.builder(PREFIX + "prepared.claims", preparedClaims, AtomicLong::get)
        .description("Claims prepared on the node now (in the checkpoint)")
        .tags(node)
        .strongReference(true)
        .register(registry);
  }

  /** The slice now holds {@code devices} at {@code generation} (written or already so). */
  public void published(int devices, long generation) {
    publication("ok").increment();
    publishedDevices.set(devices);
    poolGeneration.set(generation);
  }

  /** The API server refused a read or write of the slice. */
  public void publicationFailed() {
    publication("failed").increment();
  }

  /**
   * One kubelet call of {@code method} ({@link #PREPARE}, {@link #UNPREPARE}) took {@code time}.
   */
  public void call(String method, Duration time) {
    Timer.builder(PREFIX + "requests")
        .description("The kubelet's DRA calls and how long the driver took to answer")
        .tags(node)
        .tag("method", method)
        .serviceLevelObjectives(
            Duration.ofMillis(1),
            Duration.ofMillis(5),
            Duration.ofMillis(10),
            Duration.ofMillis(50),
            Duration.ofMillis(100),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofSeconds(5))
        .register(registry)
        .record(time);
  }

  /** One claim of a {@code method} call ended {@code ok} or with its own error. */
  public void claim(String method, boolean ok) {
    Counter.builder(PREFIX + "claims")
        .description("Claims of the kubelet's DRA calls, by result")
        .tags(node)
        .tag("method", method)
        .tag("result", ok ? "ok" : "error")
        .register(registry)
        .increment();
  }

  /** The claims prepared now. */
  public void preparedClaims(int claims) {
    preparedClaims.set(claims);
  }

  /** A claim's CDI spec file was written ({@code ok}) or could not be. */
  public void cdiSpecWritten(boolean ok) {
    Counter.builder(PREFIX + "cdi.spec.writes")
        .description("CDI spec files written for prepared claims, by result")
        .tags(node)
        .tag("result", ok ? "ok" : "failed")
        .register(registry)
        .increment();
  }

  private Counter publication(String result) {
    return Counter.builder(PREFIX + "resourceslice.publications")
        .description("Publications of the node's ResourceSlice, by result")
        .tags(node)
        .tag("result", result)
        .register(registry);
  }
}
