package io.gantry.proto.uds;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.Empty;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real round trip over a Unix domain socket, as the kubelet and a device plugin make it. */
class UnixSocketServerTest {
  @TempDir Path tmp;

  private static final class Options extends DevicePluginGrpc.DevicePluginImplBase {
    @Override
    public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> out) {
      out.onNext(DevicePluginOptions.newBuilder().setGetPreferredAllocationAvailable(true).build());
      out.onCompleted();
    }
  }

  @Test
  void aCallCrossesTheSocketAndCloseRemovesIt() throws Exception {
    Path socket = tmp.resolve("plugin.sock");
    Files.writeString(socket, "stale");

    try (UnixSocketServer server = UnixSocketServer.start(socket, List.of(new Options()))) {
      assertThat(server.socketPresent()).isTrue();
      ManagedChannel channel = UnixSocketChannels.dial(socket);
      try {
        DevicePluginOptions options =
            DevicePluginGrpc.newBlockingStub(channel)
                .getDevicePluginOptions(Empty.getDefaultInstance());
        assertThat(options.getGetPreferredAllocationAvailable()).isTrue();
      } finally {
        channel.shutdownNow();
      }
    }

    assertThat(socket).doesNotExist();
  }

  @Test
  void aServerNoticesItsSocketFileWasRemoved() throws Exception {
    Path socket = tmp.resolve("plugin.sock");
    try (UnixSocketServer server = UnixSocketServer.start(socket, List.of(new Options()))) {
      Files.delete(socket);

      assertThat(server.socketPresent()).isFalse();
    }
  }
}
