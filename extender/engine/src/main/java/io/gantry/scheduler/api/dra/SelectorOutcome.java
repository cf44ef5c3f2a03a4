package io.gantry.scheduler.api.dra;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** What a selector said of a device: matched or not, or why it could not say. */
public record SelectorOutcome(boolean matches, Optional<String> error) {
  public static final SelectorOutcome MATCH = new SelectorOutcome(true, Optional.empty());
  public static final SelectorOutcome NO_MATCH = new SelectorOutcome(false, Optional.empty());

  public SelectorOutcome {
    requireNonNull(error, "error is null");
    if (matches && error.isPresent()) {
      throw new IllegalArgumentException("a failed evaluation cannot match");
    }
  }

  public static SelectorOutcome of(boolean matches) {
    return matches ? MATCH : NO_MATCH;
  }

  public static SelectorOutcome error(String message) {
    return new SelectorOutcome(false, Optional.of(message));
  }
}
