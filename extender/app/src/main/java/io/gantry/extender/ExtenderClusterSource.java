package io.gantry.extender;

import java.io.IOException;
import java.time.Clock;

/**
 * Where the extender's cluster comes from, chosen by the command line: the live cluster, or a
 * cluster held in memory (a scenario file's). The extender knows neither the live scheduler's
 * packages nor the simulator; the command line, which may use both, builds the source.
 */
@FunctionalInterface
public interface ExtenderClusterSource {
  /**
   * Opens the cluster (a live one starts its informers), its time read from {@code clock}.
   *
   * @throws IOException when the live cluster's configuration cannot be read
   */
  ServedCluster open(Clock clock) throws IOException;
}
