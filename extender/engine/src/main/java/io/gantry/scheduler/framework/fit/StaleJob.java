package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The {@code StaleJob} event of a gang below its minimum (kai-reference §4.10): its active pods and
 * minimum, and for a job with SubGroups the short one.
 */
public record StaleJob(long active, long minMember, Optional<ShortSubGroup> subGroup) {
  public StaleJob {
    requireNonNull(subGroup, "subGroup is null");
  }

  /** The SubGroup below its minimum: its name, minMember and active pods. */
  public record ShortSubGroup(String name, long minMember, long active) {
    public ShortSubGroup {
      requireNonNull(name, "name is null");
    }
  }
}
