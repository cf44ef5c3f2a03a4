package io.gantry.scheduler.kube.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.ResourceVector;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class UsageCacheTest {
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final ImmutableSortedMap<String, ResourceVector> FIRST =
      ImmutableSortedMap.of("a", new ResourceVector(0.5, 0, 0));
  private static final ImmutableSortedMap<String, ResourceVector> SECOND =
      ImmutableSortedMap.of("a", new ResourceVector(0.25, 0, 0));

  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    private Instant now = T0;

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private final MovingClock clock = new MovingClock();
  private final Deque<Object> answers = new ArrayDeque<>();
  private final UsageCache cache =
      new UsageCache(
          now -> {
            Object next = answers.removeFirst();
            if (next instanceof IOException e) {
              throw e;
            }
            @SuppressWarnings("unchecked")
            ImmutableSortedMap<String, ResourceVector> usage =
                (ImmutableSortedMap<String, ResourceVector>) next;
            return usage;
          },
          clock,
          Duration.ofMinutes(5));

  @Test
  void beforeTheFirstFetchNobodyHasUsedAnything() throws InterruptedException {
    assertThat(cache.usage(T0)).isEmpty();
    assertThat(cache.fetchedAt()).isEmpty();
    assertThat(cache.awaitFirst(Duration.ZERO)).isFalse();
  }

  @Test
  void aCycleReadsTheLastSuccessfulFetch() throws InterruptedException {
    answers.add(FIRST);
    answers.add(SECOND);

    assertThat(cache.refresh()).isTrue();
    assertThat(cache.awaitFirst(Duration.ZERO)).isTrue();
    assertThat(cache.usage(T0)).isEqualTo(FIRST);
    clock.now = T0.plusSeconds(60);
    assertThat(cache.refresh()).isTrue();
    assertThat(cache.usage(clock.now)).isEqualTo(SECOND);
    assertThat(cache.fetchedAt()).contains(T0.plusSeconds(60));
  }

  @Test
  void aFailedFetchKeepsThePreviousUsage() {
    answers.add(FIRST);
    answers.add(new IOException("prometheus is down"));
    cache.refresh();
    clock.now = T0.plusSeconds(60);

    assertThat(cache.refresh()).isFalse();
    assertThat(cache.usage(clock.now)).isEqualTo(FIRST);
    assertThat(cache.fetchedAt()).contains(T0);
  }

  @Test
  void staleUsageIsStillUsed() {
    answers.add(FIRST);
    cache.refresh();

    assertThat(cache.usage(T0.plus(Duration.ofHours(1)))).isEqualTo(FIRST);
  }
}
