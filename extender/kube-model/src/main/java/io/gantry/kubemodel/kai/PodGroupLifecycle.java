package io.gantry.kubemodel.kai;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.GoDuration;
import io.gantry.scheduler.model.JobLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * A PodGroup's lifecycle as KAI keeps it (kai-reference §2.2, §10.2, §10.4): the scheduler's
 * timestamps in the annotations {@value #LAST_START}, {@value #LAST_EVICTION} and {@value
 * #STALE_SINCE} (RFC 3339, whole seconds, as Go's {@code time.RFC3339} writes them), and the spec's
 * {@code preemptionDelay} and {@code stalenessGracePeriod} (Go durations). Adapters read a PodGroup
 * into a {@link JobLifecycle} here and write the cycle's lifecycle back as the annotations {@link
 * #annotations} returns, so a restarted scheduler carries on where the last one stopped.
 */
public final class PodGroupLifecycle {
  public static final String LAST_START = "kai.scheduler/last-start-timestamp";
  public static final String LAST_EVICTION = "kai.scheduler/last-eviction-timestamp";
  public static final String STALE_SINCE = "kai.scheduler/stale-podgroup-timestamp";

  private PodGroupLifecycle() {}

  /**
   * The lifecycle of a PodGroup with these annotations and spec fields. A timestamp that does not
   * parse is ignored, as KAI ignores it (the scheduler writes the next one).
   *
   * @throws KaiObjectException naming {@code spec.preemptionDelay} or {@code
   *     spec.stalenessGracePeriod} when it is not a Go duration, or the delay is negative
   */
  public static JobLifecycle read(
      Map<String, String> annotations,
      Optional<String> preemptionDelay,
      Optional<String> stalenessGracePeriod) {
    Optional<Duration> delay = duration(preemptionDelay, "spec.preemptionDelay");
    if (delay.isPresent() && delay.get().isNegative()) {
      throw new KaiObjectException(
          "spec.preemptionDelay", "must not be negative, got \"" + preemptionDelay.get() + "\"");
    }
    return new JobLifecycle(
        timestamp(annotations.get(LAST_START)),
        timestamp(annotations.get(LAST_EVICTION)),
        timestamp(annotations.get(STALE_SINCE)),
        delay,
        duration(stalenessGracePeriod, "spec.stalenessGracePeriod"));
  }

  /** The three annotations {@code lifecycle} asks for; an empty value means "remove it". */
  public static ImmutableSortedMap<String, Optional<String>> annotations(JobLifecycle lifecycle) {
    return ImmutableSortedMap.of(
        LAST_START, lifecycle.lastStartedAt().map(PodGroupLifecycle::format),
        LAST_EVICTION, lifecycle.lastEvictedAt().map(PodGroupLifecycle::format),
        STALE_SINCE, lifecycle.staleSince().map(PodGroupLifecycle::format));
  }

  /** An instant as Go's {@code time.RFC3339} writes a UTC time: whole seconds, {@code Z}. */
  public static String format(Instant at) {
    return DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
  }

  private static Optional<Instant> timestamp(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<Duration> duration(Optional<String> text, String field) {
    if (text.isEmpty() || text.get().isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(GoDuration.parse(text.get()));
    } catch (IllegalArgumentException e) {
      throw new KaiObjectException(field, e.getMessage());
    }
  }
}
