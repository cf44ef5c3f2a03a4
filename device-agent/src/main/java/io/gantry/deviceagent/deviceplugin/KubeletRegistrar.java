package io.gantry.deviceagent.deviceplugin;

import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.RegisterRequest;
import io.gantry.proto.deviceplugin.v1beta1.RegistrationGrpc;
import io.gantry.proto.uds.UnixSocketChannels;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Registers a device plugin with the kubelet on its {@code kubelet.sock} (protocols.md §2.4). */
final class KubeletRegistrar {
  /** The device plugin API version this agent speaks. */
  static final String API_VERSION = "v1beta1";

  private static final long DEADLINE_SECONDS = 10;

  private KubeletRegistrar() {}

  /**
   * Calls {@code Register} for {@code resourceName} served at {@code endpoint} (a socket file name
   * in the kubelet's device plugin directory).
   *
   * @throws StatusRuntimeException when the kubelet is not there or refuses the registration
   */
  static void register(Path kubeletSocket, String endpoint, String resourceName) {
    ManagedChannel channel = UnixSocketChannels.dial(kubeletSocket);
    try {
      RegistrationGrpc.newBlockingStub(channel)
          .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS)
          .register(
              RegisterRequest.newBuilder()
                  .setVersion(API_VERSION)
                  .setEndpoint(endpoint)
                  .setResourceName(resourceName)
                  .setOptions(DevicePluginOptions.getDefaultInstance())
                  .build());
    } finally {
      channel.shutdownNow();
    }
  }
}
