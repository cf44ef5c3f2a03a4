package io.gantry.scheduler.testing;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.JobFitReason;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Fit reasons as the text users read, for tests that pin KAI's exact messages. */
public final class FitTexts {
  private FitTexts() {}

  /** A job fit error as KAI reports it: its reason and its message. */
  public record JobFitText(String reason, String message) {
    public JobFitText {
      requireNonNull(reason, "reason is null");
      requireNonNull(message, "message is null");
    }

    public static JobFitText of(JobFitReason error) {
      return new JobFitText(FitMessages.code(error.code()), FitMessages.sentence(error));
    }
  }

  /** A predicate's answer with its reasons as one message (joined with ", "). */
  public record StatusText(FitStatus.Code code, Optional<String> plugin, String message) {
    public static final StatusText SUCCESS =
        new StatusText(FitStatus.Code.SUCCESS, Optional.empty(), "");

    public static StatusText of(FitStatus status) {
      return new StatusText(
          status.code(),
          status.plugin(),
          status.reasons().stream().map(FitMessages::sentence).collect(Collectors.joining(", ")));
    }

    public static StatusText unschedulable(String plugin, String message) {
      return new StatusText(FitStatus.Code.UNSCHEDULABLE, Optional.of(plugin), message);
    }
  }

  public static List<JobFitText> of(JobState job) {
    return job.fitErrors().stream().map(JobFitText::of).toList();
  }

  public static Optional<JobFitText> of(Optional<? extends JobFitReason> error) {
    return error.map(JobFitText::of);
  }

  public static JobFitText podSchedulingErrors(String message) {
    return new JobFitText("PodSchedulingErrors", message);
  }

  public static JobFitText overLimit(String message) {
    return new JobFitText("OverLimit", message);
  }

  public static JobFitText nonPreemptibleOverQuota(String message) {
    return new JobFitText("NonPreemptibleOverQuota", message);
  }
}
