package io.gantry.proto.testing;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/** An in-process gRPC server with one service and a channel to it; close() stops both. */
public final class InProcessGrpc implements AutoCloseable {
  private final Server server;
  private final ManagedChannel channel;

  private InProcessGrpc(Server server, ManagedChannel channel) {
    this.server = server;
    this.channel = channel;
  }

  /** Starts a server for {@code service} under a fresh name. */
  public static InProcessGrpc serve(ServerServiceDefinition service) {
    String name = InProcessServerBuilder.generateName();
    try {
      Server server =
          InProcessServerBuilder.forName(name).directExecutor().addService(service).build().start();
      return new InProcessGrpc(
          server, InProcessChannelBuilder.forName(name).directExecutor().build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts a server for a {@link BindableService}. */
  public static InProcessGrpc serve(BindableService service) {
    return serve(service.bindService());
  }

  public ManagedChannel channel() {
    return channel;
  }

  /**
   * Stops the channel and the server, waiting up to 5 s for each; an interrupt while waiting is
   * rethrown unchecked, with the thread's interrupt flag set again, since try-with-resources should
   * not have to handle InterruptedException.
   */
  @Override
  public void close() {
    try {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted stopping the in-process gRPC server", e);
    }
  }
}
