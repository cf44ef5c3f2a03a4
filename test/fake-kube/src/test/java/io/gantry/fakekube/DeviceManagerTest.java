package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gantry.proto.deviceplugin.v1beta1.Device;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.Empty;
import io.gantry.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.gantry.proto.deviceplugin.v1beta1.RegisterRequest;
import io.gantry.proto.deviceplugin.v1beta1.RegistrationGrpc;
import io.gantry.proto.uds.UnixSocketChannels;
import io.gantry.proto.uds.UnixSocketServer;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake kubelet's device manager: the kubelet's registration checks and its stream handling. */
class DeviceManagerTest {
  @TempDir Path dir;

  private FakeDeviceManager kubelet;

  /** A plugin with one device that ends its stream at once when told to. */
  private static final class OneDevice extends DevicePluginGrpc.DevicePluginImplBase {
    private final boolean endStream;

    OneDevice(boolean endStream) {
      this.endStream = endStream;
    }

    @Override
    public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> out) {
      out.onNext(DevicePluginOptions.getDefaultInstance());
      out.onCompleted();
    }

    @Override
    public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> out) {
      out.onNext(
          ListAndWatchResponse.newBuilder()
              .addDevices(Device.newBuilder().setID("d0").setHealth("Healthy"))
              .build());
      if (endStream) {
        out.onCompleted();
      }
    }
  }

  @BeforeEach
  void start() {
    kubelet = FakeDeviceManager.start(dir);
  }

  @AfterEach
  void stop() {
    kubelet.close();
  }

  private void register(String version, String endpoint, String resource) {
    ManagedChannel channel = UnixSocketChannels.dial(kubelet.kubeletSocket());
    try {
      RegistrationGrpc.newBlockingStub(channel)
          .register(
              RegisterRequest.newBuilder()
                  .setVersion(version)
                  .setEndpoint(endpoint)
                  .setResourceName(resource)
                  .build());
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void anUnknownVersionIsRefused() {
    assertThatThrownBy(() -> register("v1alpha", "p.sock", "example.com/dev"))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo("Requested Device Plugin Version v1alpha is not supported");
            });
    assertThat(kubelet.registrations()).isEmpty();
  }

  @Test
  void aNameThatIsNotAnExtendedResourceIsRefused() {
    assertThatThrownBy(() -> register("v1beta1", "p.sock", "kubernetes.io/gpu"))
        .hasMessageContaining("invalid Extended Resource name: kubernetes.io/gpu");
  }

  @Test
  void aRegisteredPluginsListIsKeptAndMarkedUnhealthyWhenItsStreamEnds() throws Exception {
    try (UnixSocketServer plugin =
        UnixSocketServer.start(dir.resolve("p.sock"), List.of(new OneDevice(true)))) {
      assertThat(plugin.socketPresent()).isTrue();
      register("v1beta1", "p.sock", "example.com/dev");

      assertThat(kubelet.registrations())
          .extracting(FakeDeviceManager.Registration::resourceName)
          .containsExactly("example.com/dev");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> kubelet.devices("example.com/dev").equals(Map.of("d0", "Unhealthy")));
    }
  }

  @Test
  void aRestartDeletesThePluginSocketsAndServesKubeletSockAgain() throws Exception {
    try (UnixSocketServer plugin =
        UnixSocketServer.start(dir.resolve("p.sock"), List.of(new OneDevice(false)))) {
      register("v1beta1", "p.sock", "example.com/dev");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> kubelet.devices("example.com/dev").equals(Map.of("d0", "Healthy")));

      kubelet.restart();

      assertThat(dir.resolve("p.sock")).doesNotExist();
      assertThat(kubelet.kubeletSocket()).exists();
      assertThat(plugin.socketPresent()).isFalse();
    }
  }
}
