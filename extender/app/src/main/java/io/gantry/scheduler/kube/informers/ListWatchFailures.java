package io.gantry.scheduler.kube.informers;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.kube.ApiErrors;
import java.time.Duration;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an informer does when it cannot list or watch its resource: one WARN per failing resource
 * (no trace), a reminder with the count of failures every {@link #REMIND_EVERY}, and a backoff
 * between attempts that doubles from {@link #FIRST_RETRY} up to {@link #MAX_RETRY}.
 *
 * <p>client-java's reflector calls the handler on its own thread and starts the next attempt one
 * second after the handler returns; its default handler logs an ERROR with the whole trace, so an
 * unreachable API server printed about 18,000 lines a minute. Sleeping in the handler is the
 * backoff. A failure while the informers stop (an interrupted call) is not reported at all.
 */
final class ListWatchFailures {
  private static final Logger LOG = LoggerFactory.getLogger(ListWatchFailures.class);

  static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  static final Duration MAX_RETRY = Duration.ofSeconds(30);
  static final Duration REMIND_EVERY = Duration.ofMinutes(5);

  /** A run of failures of one resource, ended by a quiet spell longer than the backoff. */
  private static final class Episode {
    long failures;
    long firstNanos;
    long lastNanos;
    long reportedNanos;
    Duration backoff = FIRST_RETRY;
  }

  private final String server;
  private final LongSupplier nanoTime;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final TreeMap<String, Episode> episodes = new TreeMap<>();

  ListWatchFailures(String server) {
    this(server, System::nanoTime);
  }

  ListWatchFailures(String server, LongSupplier nanoTime) {
    this.server = requireNonNull(server, "server is null");
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
  }

  /** What to do about one failure: log {@code warning} when present, then wait {@code backoff}. */
  record Attempt(Duration backoff, Optional<String> warning) {
    static final Attempt QUIET = new Attempt(Duration.ZERO, Optional.empty());
  }

  /** The handler of the informer of {@code resource} (a plural, with its group when not core). */
  <T> BiConsumer<Class<T>, Throwable> handler(String resource) {
    return (type, error) -> {
      Attempt attempt = failed(resource, error);
      attempt.warning().ifPresent(LOG::warn);
      if (!attempt.backoff().isZero()) {
        sleep(attempt.backoff());
      }
    };
  }

  /** The informers are stopping: failures from now on are the stop itself. */
  void close() {
    closing.set(true);
  }

  /** How many times {@code resource} failed in its current run of failures (0 when none). */
  synchronized long failures(String resource) {
    Episode e = episodes.get(resource);
    return e == null ? 0 : e.failures;
  }

  /** Records a failure: what to log now, if anything, and how long to wait before retrying. */
  Attempt failed(String resource, Throwable error) {
    if (closing.get() || Thread.currentThread().isInterrupted() || interrupted(error)) {
      return Attempt.QUIET;
    }
    long now = nanoTime.getAsLong();
    Episode e;
    boolean first;
    boolean remind;
    synchronized (this) {
      e = episodes.get(resource);
      // a failure long after the last one starts a new run: the resource worked in between
      if (e == null || now - e.lastNanos > e.backoff.plus(MAX_RETRY).toNanos()) {
        e = new Episode();
        e.firstNanos = now;
        e.reportedNanos = now;
        episodes.put(resource, e);
      } else {
        e.backoff = min(e.backoff.multipliedBy(2), MAX_RETRY);
      }
      e.failures++;
      e.lastNanos = now;
      first = e.failures == 1;
      remind = !first && now - e.reportedNanos >= REMIND_EVERY.toNanos();
      if (remind) {
        e.reportedNanos = now;
      }
    }
    String prefix = "cannot list and watch " + resource + " on " + server + ": ";
    Optional<String> warning = Optional.empty();
    if (first) {
      warning =
          Optional.of(
              prefix
                  + ApiErrors.describe(error)
                  + "; retrying with backoff up to "
                  + MAX_RETRY.toSeconds()
                  + "s, reporting the count every "
                  + REMIND_EVERY.toMinutes()
                  + " minutes");
    } else if (remind) {
      long seconds = Duration.ofNanos(now - e.firstNanos).toSeconds();
      warning =
          Optional.of(
              prefix + e.failures + " failures in " + seconds + "s: " + ApiErrors.describe(error));
    }
    return new Attempt(e.backoff, warning);
  }

  private static boolean interrupted(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException) {
        // a timed-out call is an InterruptedIOException too, but then the thread is not stopping
        return t instanceof InterruptedException || !(t instanceof java.net.SocketTimeoutException);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static void sleep(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      // the informer is stopping; its thread ends
      Thread.currentThread().interrupt();
    }
  }
}
