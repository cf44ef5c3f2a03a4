package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import java.time.Duration;
import java.util.Optional;

/**
 * How the extender behaves and where it serves: everything {@link ExtenderWiring} needs besides the
 * cluster it serves.
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
 * @param port the port to listen on, 0 for any free one
 * @param tls the certificate and key to serve HTTPS with (only HTTPS); plain HTTP when empty
 * @param webhookFailurePolicy what the admission webhook answers for a pod it cannot read
 * @param webhookSkippedNamespaces namespaces whose pods the admission webhook admits unchanged
 */
public record ExtenderSettings(
    Duration reservationTtl,
    Duration httpTimeout,
    boolean fairShareWaiting,
    int maxRequestBytes,
    Duration requestTimeout,
    int networkThreads,
    int port,
    Optional<TlsSettings> tls,
    AdmissionWebhook.FailurePolicy webhookFailurePolicy,
    ImmutableSet<String> webhookSkippedNamespaces) {
  public static final Duration DEFAULT_RESERVATION_TTL = Duration.ofSeconds(30);

  /** kube-scheduler's {@code DefaultExtenderTimeout}, used when {@code httpTimeout} is 0. */
  public static final Duration DEFAULT_HTTP_TIMEOUT = Duration.ofSeconds(5);

  public static final int DEFAULT_MAX_REQUEST_BYTES = 64 * 1024 * 1024;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_PORT = 8888;
  public static final AdmissionWebhook.FailurePolicy DEFAULT_WEBHOOK_FAILURE_POLICY =
      AdmissionWebhook.FailurePolicy.Fail;

  /** System pods are admitted untouched: a failing webhook must not stop the control plane. */
  public static final ImmutableSet<String> DEFAULT_WEBHOOK_SKIPPED_NAMESPACES =
      ImmutableSet.of("kube-system");

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
    requireNonNull(tls, "tls is null");
    requireNonNull(webhookFailurePolicy, "webhookFailurePolicy is null");
    requireNonNull(webhookSkippedNamespaces, "webhookSkippedNamespaces is null");
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
    if (port < 0 || port > 65535) {
      // InetSocketAddress's own words, which the extender printed before settings checked ports
      throw new IllegalArgumentException("port out of range:" + port);
    }
  }

  /**
   * The behaviour given, served on the defaults: port {@value #DEFAULT_PORT}, plain HTTP, and the
   * webhook failing on unreadable pods outside {@code kube-system}.
   */
  public ExtenderSettings(
      Duration reservationTtl,
      Duration httpTimeout,
      boolean fairShareWaiting,
      int maxRequestBytes,
      Duration requestTimeout,
      int networkThreads) {
    this(
        reservationTtl,
        httpTimeout,
        fairShareWaiting,
        maxRequestBytes,
        requestTimeout,
        networkThreads,
        DEFAULT_PORT,
        Optional.empty(),
        DEFAULT_WEBHOOK_FAILURE_POLICY,
        DEFAULT_WEBHOOK_SKIPPED_NAMESPACES);
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
