package io.gantry.cli;

import io.gantry.nodecommon.kube.ApiServerUnavailableException;
import java.io.IOException;
import java.io.PrintWriter;

/** The one line a cluster command prints when it cannot connect at start, and its exit status. */
final class ClusterErrors {
  private ClusterErrors() {}

  /** Writes why the command cannot connect to {@code err}; returns exit status 2. */
  static int report(IOException e, PrintWriter err) {
    if (e instanceof ApiServerUnavailableException) {
      err.println("error: " + e.getMessage());
    } else {
      err.println("error: cannot read the cluster configuration: " + e.getMessage());
    }
    err.flush();
    return SimulateCommand.INVALID;
  }
}
