package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/** The answer for one claim: its prepared devices, or the error that stopped it. */
public record ClaimOutcome(List<PreparedDevice> devices, Optional<String> error) {
  public ClaimOutcome {
    devices = List.copyOf(requireNonNull(devices, "devices is null"));
    requireNonNull(error, "error is null");
    if (error.isPresent() && !devices.isEmpty()) {
      throw new IllegalArgumentException("a failed claim has no devices");
    }
  }

  public static ClaimOutcome prepared(List<PreparedDevice> devices) {
    return new ClaimOutcome(devices, Optional.empty());
  }

  /** Success with nothing to report, the answer to an unprepare. */
  public static ClaimOutcome done() {
    return new ClaimOutcome(List.of(), Optional.empty());
  }

  public static ClaimOutcome failed(String error) {
    return new ClaimOutcome(List.of(), Optional.of(error));
  }
}
