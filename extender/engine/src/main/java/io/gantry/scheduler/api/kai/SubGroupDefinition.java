package io.gantry.scheduler.api.kai;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalInt;

/** One entry of a PodGroup's {@code spec.subGroups}, as written. */
public record SubGroupDefinition(
    String name, Optional<String> parent, OptionalInt minMember, OptionalInt minSubGroup) {
  public SubGroupDefinition {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(minMember, "minMember is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
  }
}
