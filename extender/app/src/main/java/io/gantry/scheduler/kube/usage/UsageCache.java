package io.gantry.scheduler.kube.usage;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.model.ResourceVector;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The usage a cycle reads (kai-reference §5.4): the last successful fetch, refreshed in the
 * background every {@code fetchInterval} so a cycle never waits on Prometheus. A failed fetch keeps
 * the previous answer; an answer older than {@code stalenessPeriod} is logged as stale and still
 * used, as KAI does. Before the first success every queue has used nothing.
 */
public final class UsageCache implements UsageSource {
  private static final Logger LOG = LoggerFactory.getLogger(UsageCache.class);

  /** One fetch of every queue's usage at a time. */
  @FunctionalInterface
  public interface Fetch {
    ImmutableSortedMap<String, ResourceVector> at(Instant now) throws IOException;
  }

  private record Answer(Instant fetchedAt, ImmutableSortedMap<String, ResourceVector> usage) {}

  private final Fetch fetch;
  private final Clock clock;
  private final Duration stalenessPeriod;
  private final CountDownLatch first = new CountDownLatch(1);
  private volatile Optional<Answer> last = Optional.empty();
  private volatile Optional<Instant> staleLoggedFor = Optional.empty();

  public UsageCache(Fetch fetch, Clock clock, Duration stalenessPeriod) {
    this.fetch = requireNonNull(fetch, "fetch is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.stalenessPeriod = requireNonNull(stalenessPeriod, "stalenessPeriod is null");
  }

  /** Fetches now; on failure logs it and keeps the previous answer. True when it succeeded. */
  public boolean refresh() {
    Instant now = clock.instant();
    try {
      last = Optional.of(new Answer(now, fetch.at(now)));
      first.countDown();
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Failed to fetch queue usage; keeping the previous usage: {}", e.toString());
      return false;
    }
  }

  /** Waits until a fetch succeeded, at most {@code timeout}; true when one did. */
  public boolean awaitFirst(Duration timeout) throws InterruptedException {
    return first.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** When the answer in use was fetched; empty before the first success. */
  public Optional<Instant> fetchedAt() {
    return last.map(Answer::fetchedAt);
  }

  @Override
  public ImmutableSortedMap<String, ResourceVector> usage(Instant now) {
    Optional<Answer> answer = last;
    if (answer.isEmpty()) {
      return ImmutableSortedMap.of();
    }
    Instant at = answer.get().fetchedAt();
    if (at.plus(stalenessPeriod).isBefore(now) && !staleLoggedFor.equals(Optional.of(at))) {
      staleLoggedFor = Optional.of(at);
      LOG.warn("Queue usage is stale: fetched at {}, older than {}", at, stalenessPeriod);
    }
    return answer.get().usage();
  }
}
