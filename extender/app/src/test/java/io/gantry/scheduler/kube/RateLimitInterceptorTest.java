package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RateLimitInterceptorTest {
  @Test
  void aBurstPassesAtOnceThenRequestsWaitForTheRate() {
    RateLimitInterceptor limiter = new RateLimitInterceptor(new ApiRateLimit(10, 2));

    assertThat(limiter.reserve()).isZero();
    assertThat(limiter.reserve()).isZero();
    // the third waits about a tenth of a second, the fourth about two
    assertThat(limiter.reserve())
        .isBetween(TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.MILLISECONDS.toNanos(101));
    assertThat(limiter.reserve())
        .isBetween(TimeUnit.MILLISECONDS.toNanos(150), TimeUnit.MILLISECONDS.toNanos(201));
  }

  @Test
  void zeroQpsIsNoLimitAndABurstUnderOneIsRefused() {
    assertThat(ApiRateLimit.NONE.limited()).isFalse();
    assertThat(new ApiRateLimit(50, 100).limited()).isTrue();
    assertThatThrownBy(() -> new ApiRateLimit(50, 0))
        .hasMessage("kube-api-burst must be at least 1");
  }
}
