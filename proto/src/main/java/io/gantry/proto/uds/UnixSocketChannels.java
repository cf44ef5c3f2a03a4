package io.gantry.proto.uds;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;

/** gRPC client channels to a Unix domain socket (plaintext HTTP/2, as the kubelet speaks). */
public final class UnixSocketChannels {
  private UnixSocketChannels() {}

  /**
   * A channel to {@code socket}, with authority {@code localhost} as the kubelet uses when it dials
   * plugins. grpc-netty's {@code unix:} scheme picks the epoll domain-socket transport and its
   * shared event loops. The connection is made on first use; shut the channel down when done.
   */
  public static ManagedChannel dial(Path socket) {
    return Grpc.newChannelBuilder(
            "unix://" + socket.toAbsolutePath(), InsecureChannelCredentials.create())
        .overrideAuthority("localhost")
        .build();
  }
}
