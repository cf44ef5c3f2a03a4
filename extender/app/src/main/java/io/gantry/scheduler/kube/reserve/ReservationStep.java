package io.gantry.scheduler.kube.reserve;

import static java.util.Objects.requireNonNull;

/** Where the reservation of one GPU group stands, as {@link GpuReserver#reserve} found it. */
public sealed interface ReservationStep {
  /** The reservation pod holds the GPU with this UUID. */
  record Reserved(String uuid) implements ReservationStep {
    public Reserved {
      requireNonNull(uuid, "uuid is null");
    }
  }

  /** Not yet: the reservation pod was created or has not reported; {@code why} says which. */
  record Waiting(String why) implements ReservationStep {
    public Waiting {
      requireNonNull(why, "why is null");
    }
  }

  /** The reservation failed for good ({@code cause}); its pod was deleted. */
  record Failed(String cause) implements ReservationStep {
    public Failed {
      requireNonNull(cause, "cause is null");
    }
  }
}
