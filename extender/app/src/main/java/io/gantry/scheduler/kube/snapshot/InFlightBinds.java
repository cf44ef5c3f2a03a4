package io.gantry.scheduler.kube.snapshot;

import io.gantry.scheduler.kube.write.Binder;
import java.util.Optional;

/** The binds decided and not yet seen bound in the cache, by pod; the {@link Binder} keeps them. */
public interface InFlightBinds {
  /** No bind is ever in flight: a reader of the cluster that never binds. */
  InFlightBinds NONE = podKey -> Optional.empty();

  /**
   * The bind in flight for the pod, if one is.
   *
   * @param podKey {@code namespace/name}
   */
  Optional<InFlightBind> inFlight(String podKey);
}
