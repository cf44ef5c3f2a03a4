package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How the extender behaves.
 *
 * @param reservationTtl how long capacity planned for a gang stays promised to it while its pods
 *     come through filter and bind; on expiry it is offered to others again
 * @param httpTimeout kube-scheduler's {@code httpTimeout} for this extender; a member waiting in
 *     {@code bind} for the rest of its gang gives up at four fifths of it, so kube-scheduler hears
 *     the answer before it stops listening
 * @param fairShareWaiting whether a pod waits while queues ahead of its own in fair-share order
 *     have pending work that fits (the whole cluster's pending work is planned together); off, each
 *     pod's PodGroup is planned alone against what is running and reserved
 * @param maxRequestBytes the largest request body accepted (413 above)
 * @param requestTimeout how long a client may take to send one whole request (408 after)
 * @param networkThreads the server's network threads, 0 for one per available core: most requests
 *     are answered on them, so more threads than cores only add waiting for a core
 */
public record ExtenderSettings(
    Duration reservationTtl,
    Duration httpTimeout,
    boolean fairShareWaiting,
    int maxRequestBytes,
    Duration requestTimeout,
    int networkThreads) {
  public static final Duration DEFAULT_RESERVATION_TTL = Duration.ofSeconds(30);

  /** kube-scheduler's {@code DefaultExtenderTimeout}, used when {@code httpTimeout} is 0. */
  public static final Duration DEFAULT_HTTP_TIMEOUT = Duration.ofSeconds(5);

  public static final int DEFAULT_MAX_REQUEST_BYTES = 64 * 1024 * 1024;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final ExtenderSettings DEFAULTS =
      new ExtenderSettings(
          DEFAULT_RESERVATION_TTL,
          DEFAULT_HTTP_TIMEOUT,
          true,
          DEFAULT_MAX_REQUEST_BYTES,
          DEFAULT_REQUEST_TIMEOUT,
          0);

  public ExtenderSettings {
    requireNonNull(reservationTtl, "reservationTtl is null");
    requireNonNull(httpTimeout, "httpTimeout is null");
    requireNonNull(requestTimeout, "requestTimeout is null");
    if (reservationTtl.isNegative() || reservationTtl.isZero()) {
      throw new IllegalArgumentException("reservationTtl must be positive, got " + reservationTtl);
    }
    if (httpTimeout.isNegative() || httpTimeout.isZero()) {
      throw new IllegalArgumentException("httpTimeout must be positive, got " + httpTimeout);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive, got " + requestTimeout);
    }
    if (maxRequestBytes < 1024) {
      throw new IllegalArgumentException(
          "maxRequestBytes must be at least 1024, got " + maxRequestBytes);
    }
    if (networkThreads < 0) {
      throw new IllegalArgumentException(
          "networkThreads must be 0 (one per core) or more, got " + networkThreads);
    }
  }

  /** The number of network threads to start: {@link #networkThreads}, or one per core for 0. */
  public int networkThreadCount() {
    return networkThreads > 0 ? networkThreads : Runtime.getRuntime().availableProcessors();
  }

  /** How long a gang member waits in {@code bind} for the others. */
  public Duration bindWait() {
    return httpTimeout.multipliedBy(4).dividedBy(5);
  }
}
