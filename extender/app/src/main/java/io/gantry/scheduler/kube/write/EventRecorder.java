// Why this class and not client-java's event machinery (issue 24 asks for its
// io.kubernetes.client.extended.event.legacy.LegacyEventBroadcaster "unless a measured reason
// says otherwise"): its artifact, io.kubernetes:client-java-extended, cannot be resolved at the
// version the parent pom's client-java
// BOM pins (27.0.0): `mvn dependency:get -Dartifact=io.kubernetes:client-java-extended:27.0.0`
// answers "Could not find artifact" from the project's Maven repository (2026-12-02), and no other
// version may be mixed with client-java 27. So it could not be tried against test/fake-kube, nor
// its writes counted; this recorder stays, with its tests (its rate limit and its
// once-per-10-minutes repeat rule). Revisit when the artifact resolves. See docs/scheduler.md.
package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.RateLimiter;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes core/v1 Events (KAI's reasons and messages, kai-reference §11) from one background thread,
 * at most {@code perSecond} a second. The same reason and message for the same object is written
 * once per {@link #REPEAT_AFTER} (a cycle repeats its Unschedulable events every second); when the
 * queue is full, new events are dropped and counted, as the Kubernetes event broadcaster does, and
 * the drops are logged as one summary line per {@link #DROP_LOG_EVERY} (and at close).
 */
public final class EventRecorder implements AutoCloseable {
  static final Duration REPEAT_AFTER = Duration.ofMinutes(10);
  static final int QUEUE_CAPACITY = 10_000;
  static final Duration DROP_LOG_EVERY = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

  private record Pending(ObjectRef object, String type, String reason, String message) {}

  private final KubeWriter writer;
  private final String component;
  private final Clock clock;
  private final RateLimiter limiter;
  private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final Cache<String, Boolean> recent =
      CacheBuilder.newBuilder().maximumSize(200_000).expireAfterWrite(REPEAT_AFTER).build();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong droppedLogged = new AtomicLong();
  private final AtomicLong nextDropLogMillis = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong sequence = new AtomicLong();
  private final Thread thread;
  private volatile boolean running = true;

  public EventRecorder(KubeWriter writer, String component, Clock clock, double perSecond) {
    this.writer = requireNonNull(writer, "writer is null");
    this.component = requireNonNull(component, "component is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.limiter = RateLimiter.create(perSecond);
    this.thread = new Thread(this::drain, "gantry-events");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  public void normal(ObjectRef object, String reason, String message) {
    record(object, "Normal", reason, message);
  }

  public void warning(ObjectRef object, String reason, String message) {
    record(object, "Warning", reason, message);
  }

  private void record(ObjectRef object, String type, String reason, String message) {
    String key = object.uid() + "/" + object.name() + "\u0000" + reason + "\u0000" + message;
    if (recent.asMap().putIfAbsent(key, Boolean.TRUE) != null) {
      return;
    }
    if (!queue.offer(new Pending(object, type, reason, message))) {
      recent.invalidate(key);
      dropped.incrementAndGet();
      logDrops();
    }
  }

  /**
   * One WARN line per {@link #DROP_LOG_EVERY} at most, summing the drops since the last one: a bind
   * burst drops tens of thousands of {@code Scheduled} events, which one line a thousand would
   * still turn into dozens of lines.
   */
  private void logDrops() {
    long now = clock.millis();
    long next = nextDropLogMillis.get();
    if (now < next || !nextDropLogMillis.compareAndSet(next, now + DROP_LOG_EVERY.toMillis())) {
      return;
    }
    reportDrops();
  }

  /** Logs the drops since the last report, if any. */
  private void reportDrops() {
    long total = dropped.get();
    long since = total - droppedLogged.getAndSet(total);
    if (since > 0) {
      LOG.warn(
          "event queue full ({} events): dropped {} events since the last report, {} in all",
          QUEUE_CAPACITY,
          since,
          total);
    }
  }

  long dropped() {
    return dropped.get();
  }

  private void drain() {
    while (running) {
      Pending p;
      try {
        p = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      limiter.acquire();
      try {
        writer.createEvent(event(p));
      } catch (ApiException | RuntimeException e) {
        LOG.debug("writing event {} on {}: {}", p.reason(), p.object().name(), e.toString());
      } catch (Exception e) {
        // OkHttp (Kotlin) throws InterruptedException undeclared when close() interrupts a write
        // in flight: that is the recorder stopping, not a failure.
        if (!running) {
          return;
        }
        LOG.debug("writing event {} on {}: {}", p.reason(), p.object().name(), e.toString());
      }
    }
  }

  private CoreV1Event event(Pending p) {
    var now = clock.instant().atOffset(ZoneOffset.UTC);
    String namespace = p.object().namespace().isEmpty() ? "default" : p.object().namespace();
    return new CoreV1Event()
        .apiVersion("v1")
        .kind("Event")
        .metadata(
            new V1ObjectMeta()
                .namespace(namespace)
                .name(
                    p.object().name()
                        + "."
                        + Long.toHexString(clock.millis()).toLowerCase(Locale.ROOT)
                        + Long.toHexString(sequence.incrementAndGet())))
        .involvedObject(
            new V1ObjectReference()
                .apiVersion(p.object().apiVersion())
                .kind(p.object().kind())
                .namespace(p.object().namespace().isEmpty() ? null : p.object().namespace())
                .name(p.object().name())
                .uid(p.object().uid()))
        .type(p.type())
        .reason(p.reason())
        .message(p.message())
        .count(1)
        .firstTimestamp(now)
        .lastTimestamp(now)
        .source(new V1EventSource().component(component))
        .reportingComponent(component);
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    reportDrops();
  }
}
