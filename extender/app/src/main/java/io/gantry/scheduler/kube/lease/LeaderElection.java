package io.gantry.scheduler.kube.lease;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Leader election on a coordination.k8s.io/v1 Lease: the lease {@code namespace/leaseName}, held by
 * {@code identity} (unique per replica), for {@code leaseDuration}; the holder renews every {@code
 * retryPeriod} and stops leading when it could not renew for {@code renewDeadline}. client-go's
 * defaults: 15 s, 10 s, 2 s.
 */
public record LeaderElection(
    boolean enabled,
    String namespace,
    String leaseName,
    String identity,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod) {
  public LeaderElection {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(leaseName, "leaseName is null");
    requireNonNull(identity, "identity is null");
    requireNonNull(leaseDuration, "leaseDuration is null");
    requireNonNull(renewDeadline, "renewDeadline is null");
    requireNonNull(retryPeriod, "retryPeriod is null");
    if (renewDeadline.compareTo(leaseDuration) >= 0) {
      throw new IllegalArgumentException("renewDeadline must be shorter than leaseDuration");
    }
    if (retryPeriod.compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException("retryPeriod must be shorter than renewDeadline");
    }
  }
}
