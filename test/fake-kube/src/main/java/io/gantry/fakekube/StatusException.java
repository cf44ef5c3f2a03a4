package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

/** A request that the fake answers with a failure {@code Status}, as the API server would. */
public final class StatusException extends RuntimeException {
  private final KubeStatus status;

  public StatusException(KubeStatus status) {
    super(requireNonNull(status, "status is null").message());
    this.status = status;
  }

  public KubeStatus status() {
    return status;
  }
}
