package io.gantry.proto.uds;

import io.grpc.Server;
import java.util.concurrent.TimeUnit;

/** Stopping a gRPC server the same way on every transport. */
public final class GrpcServers {
  /** How long calls in flight get to end before they are cut. */
  private static final long SHUTDOWN_WAIT_MILLIS = 2_000;

  private GrpcServers() {}

  /**
   * Stops taking calls, waits briefly for those in flight to end and then cuts them; keeps the
   * thread's interrupt.
   */
  public static void stop(Server server) {
    server.shutdown();
    try {
      if (!server.awaitTermination(SHUTDOWN_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
