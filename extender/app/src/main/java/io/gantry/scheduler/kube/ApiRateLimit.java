package io.gantry.scheduler.kube;

/**
 * The client-side limit on the scheduler's requests to the API server, as client-go's {@code
 * --kube-api-qps} and {@code --kube-api-burst}: {@code qps} requests a second on average, up to
 * {@code burst} at once after a quiet spell. Watches are not limited (they are long-lived).
 *
 * @param qps requests a second; 0 for no client-side limit (the API server's priority and fairness
 *     still applies)
 * @param burst requests allowed at once; at least 1
 */
public record ApiRateLimit(double qps, int burst) {
  /** No client-side limit: the default, so binds go as fast as the server takes them. */
  public static final ApiRateLimit NONE = new ApiRateLimit(0, 1);

  public ApiRateLimit {
    if (!(qps >= 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("kube-api-qps must be 0 (no limit) or a positive number");
    }
    if (burst < 1) {
      throw new IllegalArgumentException("kube-api-burst must be at least 1");
    }
  }

  public boolean limited() {
    return qps > 0;
  }
}
