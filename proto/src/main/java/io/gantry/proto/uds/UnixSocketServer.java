package io.gantry.proto.uds;

import static java.util.Objects.requireNonNull;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC server on a Unix domain socket (Netty epoll), as the kubelet's plugin APIs use: the
 * kubelet serves its registration service on one, each plugin serves its own. Starting removes a
 * stale socket file first; closing stops the server, waits briefly for calls to end, frees its
 * event loops and removes the socket file if it is still the one this server bound.
 */
public final class UnixSocketServer implements AutoCloseable {
  private final Path socket;
  private final Server server;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Object fileKey;

  private UnixSocketServer(
      Path socket, Server server, EventLoopGroup boss, EventLoopGroup workers, Object fileKey) {
    this.socket = socket;
    this.server = server;
    this.boss = boss;
    this.workers = workers;
    this.fileKey = fileKey;
  }

  /**
   * Serves {@code services} on {@code socket}, replacing any file already there.
   *
   * @throws IOException when the socket cannot be bound (for example the directory is missing)
   */
  public static UnixSocketServer start(Path socket, List<BindableService> services)
      throws IOException {
    requireNonNull(socket, "socket is null");
    Files.deleteIfExists(socket);
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
            .bossEventLoopGroup(boss)
            .workerEventLoopGroup(workers)
            .channelType(EpollServerDomainSocketChannel.class);
    services.forEach(builder::addService);
    try {
      Server server = builder.build().start();
      return new UnixSocketServer(socket, server, boss, workers, fileKey(socket));
    } catch (IOException | RuntimeException e) {
      release(boss, workers);
      throw new IOException("cannot serve gRPC on " + socket + ": " + e.getMessage(), e);
    }
  }

  public Path socket() {
    return socket;
  }

  /** True while the socket file this server bound is still in place (nobody removed it). */
  public boolean socketPresent() {
    try {
      return fileKey != null && fileKey.equals(fileKey(socket));
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    GrpcServers.stop(server);
    release(boss, workers);
    if (socketPresent()) {
      try {
        Files.deleteIfExists(socket);
      } catch (IOException e) {
        // The file stays; the next server on this path removes it before binding.
      }
    }
  }

  /** Frees the event loops' threads; nothing waits for that, their work is already over. */
  private static void release(EventLoopGroup... groups) {
    for (EventLoopGroup group : groups) {
      Future<?> unused = group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }
  }

  private static Object fileKey(Path socket) throws IOException {
    return Files.readAttributes(socket, BasicFileAttributes.class).fileKey();
  }
}
