package io.gantry.deviceagent.nodeagent;

import static java.util.Objects.requireNonNull;

import io.gantry.proto.uds.GrpcServers;
import io.gantry.proto.uds.UnixSocketServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the node-agent API on a Unix socket and, when asked, on a TCP port (plaintext, every
 * interface). Closing ends every event stream normally first, so clients see the stream end rather
 * than a broken connection, then stops both servers.
 */
public final class NodeAgentServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeAgentServer.class);

  /** Where {@code serve} puts the socket unless told otherwise. */
  public static final String DEFAULT_SOCKET = "/var/lib/gantry/node-agent.sock";

  private final NodeEventHub events;
  private final UnixSocketServer unix;
  private final Optional<Server> tcp;

  private NodeAgentServer(NodeEventHub events, UnixSocketServer unix, Optional<Server> tcp) {
    this.events = events;
    this.unix = unix;
    this.tcp = tcp;
  }

  /**
   * Serves {@code service} on {@code socket} (its directory is created when missing) and on {@code
   * tcpPort} when present.
   *
   * @param events the hub {@code service} streams from; closed with the server
   * @throws IOException when the socket or the port cannot be bound
   */
  public static NodeAgentServer start(
      NodeAgentService service, NodeEventHub events, Path socket, OptionalInt tcpPort)
      throws IOException {
    requireNonNull(service, "service is null");
    requireNonNull(events, "events is null");
    requireNonNull(tcpPort, "tcpPort is null");
    Path directory = socket.toAbsolutePath().getParent();
    if (directory != null) {
      Files.createDirectories(directory);
    }
    UnixSocketServer unix = UnixSocketServer.start(socket, List.of(service));
    log.info("serving the node-agent API on {}", socket);
    if (tcpPort.isEmpty()) {
      return new NodeAgentServer(events, unix, Optional.empty());
    }
    try {
      Server tcp =
          NettyServerBuilder.forAddress(new InetSocketAddress(tcpPort.getAsInt()))
              .addService(service)
              .build()
              .start();
      log.info("serving the node-agent API on TCP port {}", tcp.getPort());
      return new NodeAgentServer(events, unix, Optional.of(tcp));
    } catch (IOException e) {
      unix.close();
      throw new IOException(
          "cannot serve the node-agent API on TCP port "
              + tcpPort.getAsInt()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  public Path socket() {
    return unix.socket();
  }

  @Override
  public void close() {
    events.close();
    tcp.ifPresent(GrpcServers::stop);
    unix.close();
  }
}
