package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * A claim constraint: every device chosen for the named requests (all requests when empty) has the
 * {@code matchAttribute} attribute, with one value.
 */
public record DeviceConstraint(ImmutableList<String> requests, String matchAttribute) {
  public DeviceConstraint {
    requireNonNull(requests, "requests is null");
    requireNonNull(matchAttribute, "matchAttribute is null");
  }

  /** Whether the constraint covers a request (by its name, not a subrequest's). */
  public boolean covers(String requestName) {
    return requests.isEmpty() || requests.contains(requestName);
  }
}
