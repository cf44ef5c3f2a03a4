package io.gantry.scheduler.actions;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.gantry.scheduler.api.config.SearchBudgets;
import java.time.Duration;

/**
 * The time an eviction action may spend searching for victims (kai-reference §4.11): a deadline for
 * the action, one per preemptor — the action's remaining time or the job limit, whichever is
 * smaller, but at least the job minimum — and one per generator within the job's. Time is read from
 * the injected ticker; zero limits are unlimited.
 */
final class SearchBudget {
  private static final long UNLIMITED = Long.MAX_VALUE;

  private final Ticker ticker;
  private final SearchBudgets limits;
  private final long actionDeadline;

  private SearchBudget(Ticker ticker, SearchBudgets limits, long actionDeadline) {
    this.ticker = ticker;
    this.limits = limits;
    this.actionDeadline = actionDeadline;
  }

  /** The budget of one run of an action, starting now; {@code actionKey} as in KAI's map. */
  static SearchBudget forAction(Ticker ticker, SearchBudgets limits, String actionKey) {
    requireNonNull(ticker, "ticker is null");
    long start = ticker.read();
    return new SearchBudget(ticker, limits, deadline(start, limits.action(actionKey)));
  }

  boolean exhausted() {
    return remaining(actionDeadline) <= 0;
  }

  /** A preemptor's budget, starting now. */
  Job beginJob() {
    long now = ticker.read();
    long actionRemaining = remaining(actionDeadline);
    long jobLimit = nanos(limits.maxJobSearchDuration());
    long remaining = actionRemaining;
    if (jobLimit != 0 && jobLimit < remaining) {
      remaining = jobLimit;
    }
    long minimum = nanos(limits.minJobSearchDuration());
    if (minimum > remaining) {
      remaining = minimum;
    }
    boolean reduced = jobLimit > 0 && actionRemaining < jobLimit;
    return new Job(remaining == UNLIMITED ? UNLIMITED : saturatedAdd(now, remaining), reduced);
  }

  /** One preemptor's search deadline. */
  final class Job {
    private final long deadline;
    private final boolean reduced;

    private Job(long deadline, boolean reduced) {
      this.deadline = deadline;
      this.reduced = reduced;
    }

    boolean exhausted() {
      return remaining(deadline) <= 0;
    }

    /** The ticker's reading now, in nanoseconds, for timing a generator's search. */
    long nowNanos() {
      return ticker.read();
    }

    /** KAI's {@code reduced_budget}: the action had less time left than the job limit. */
    boolean reduced() {
      return reduced;
    }

    /** A generator's deadline within this job's, starting now. */
    Generator beginGenerator(String generatorName) {
      long now = ticker.read();
      long jobRemaining = remaining(deadline);
      long limit = nanos(limits.generator(generatorName));
      long remaining = limit != 0 && limit < jobRemaining ? limit : jobRemaining;
      return new Generator(remaining == UNLIMITED ? UNLIMITED : saturatedAdd(now, remaining));
    }
  }

  /** One generator's search deadline. */
  final class Generator {
    private final long deadline;

    private Generator(long deadline) {
      this.deadline = deadline;
    }

    boolean exhausted() {
      return remaining(deadline) <= 0;
    }
  }

  private long remaining(long deadline) {
    if (deadline == UNLIMITED) {
      return UNLIMITED;
    }
    return Math.max(0, deadline - ticker.read());
  }

  private static long deadline(long start, Duration limit) {
    return limit.isZero() ? UNLIMITED : saturatedAdd(start, nanos(limit));
  }

  private static long nanos(Duration d) {
    return d.isZero() ? 0 : saturatedNanos(d);
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return UNLIMITED - 1;
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? UNLIMITED - 1 : sum;
  }
}
