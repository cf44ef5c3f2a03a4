package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobFitError;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** KAI's fit-error sentences (kai-reference §11), formatted in one place. */
public final class FitMessages {
  public static final String UNABLE_TO_SCHEDULE_PODGROUP = "Unable to schedule podgroup";

  private FitMessages() {}

  static String gang(long found, long required, String error) {
    return String.format(
        "Resources were found for %d pods while %d are required for gang scheduling. Additional"
            + " pods cannot be scheduled due to: %s",
        found, required, error);
  }

  static String pod(String namespace, String pod, String error) {
    return String.format(
        "Resources were not found for pod %s/%s due to: %s", namespace, pod, error);
  }

  static String notReady(long minMember, long exist, long gated) {
    return String.format(
        "Job is not ready for scheduling. Waiting for %d pods, currently %d exist, %d are gated",
        minMember, exist, gated);
  }

  /**
   * {@code <reason>: <msg1>. \n<msg2>.}: the single reason, or {@value UNABLE_TO_SCHEDULE_PODGROUP}
   * when there are several; identical messages collapsed as {@code <count> <msg>}, sorted.
   */
  public static Optional<String> jobMessage(List<JobFitError> errors) {
    if (errors.isEmpty()) {
      return Optional.empty();
    }
    long reasons = errors.stream().map(JobFitError::reason).distinct().count();
    String head = reasons == 1 ? errors.get(0).reason() : UNABLE_TO_SCHEDULE_PODGROUP;
    Map<String, Integer> counts = new TreeMap<>();
    for (JobFitError e : errors) {
      counts.merge(stripPeriod(e.message()), 1, Integer::sum);
    }
    String body =
        counts.entrySet().stream()
            .map(e -> (e.getValue() > 1 ? e.getValue() + " " : "") + e.getKey() + ".")
            .collect(Collectors.joining(" \n"));
    return Optional.of(head + ": " + body);
  }

  private static String stripPeriod(String s) {
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
