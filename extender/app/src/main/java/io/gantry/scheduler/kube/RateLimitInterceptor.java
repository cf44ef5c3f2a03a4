package io.gantry.scheduler.kube;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Holds each request until {@link ApiRateLimit} allows it: a token bucket of {@code burst} tokens
 * refilled at {@code qps} a second. Watch requests pass at once.
 */
final class RateLimitInterceptor implements Interceptor {
  private final double tokensPerNano;
  private final double burst;
  private double tokens;
  private long lastNanos = System.nanoTime();

  RateLimitInterceptor(ApiRateLimit limit) {
    this.tokensPerNano = limit.qps() / TimeUnit.SECONDS.toNanos(1);
    this.burst = limit.burst();
    this.tokens = limit.burst();
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    if (!"true".equals(chain.request().url().queryParameter("watch"))) {
      long waitNanos = reserve();
      if (waitNanos > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(waitNanos);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while rate-limited");
        }
      }
    }
    return chain.proceed(chain.request());
  }

  /** Takes a token, going into debt when none is left; how long to wait for it. */
  synchronized long reserve() {
    long now = System.nanoTime();
    tokens = Math.min(burst, tokens + (now - lastNanos) * tokensPerNano);
    lastNanos = now;
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) (-tokens / tokensPerNano);
  }
}
