package io.gantry.dradriver.grpc;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.dradriver.DriverNames;
import io.gantry.proto.pluginregistration.v1.InfoRequest;
import io.gantry.proto.pluginregistration.v1.PluginInfo;
import io.gantry.proto.pluginregistration.v1.RegistrationGrpc;
import io.gantry.proto.pluginregistration.v1.RegistrationStatus;
import io.gantry.proto.pluginregistration.v1.RegistrationStatusResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin watcher's side of the driver (protocols.md §3.1), served on the registration socket in
 * the kubelet's {@code plugins_registry} directory: {@code GetInfo} names the driver, its DRA
 * socket and the DRAPlugin versions it serves ({@code v1.DRAPlugin} first, which kubelets from 1.34
 * pick, then {@code v1beta1.DRAPlugin} for 1.32 and 1.33); {@code NotifyRegistrationStatus} tells
 * whether the kubelet accepted it. A refusal is logged and answered with an error, as the kubelet's
 * own helper does.
 */
public final class PluginRegistrationService extends RegistrationGrpc.RegistrationImplBase {
  private static final Logger log = LoggerFactory.getLogger(PluginRegistrationService.class);

  public static final String TYPE = "DRAPlugin";
  public static final ImmutableList<String> SUPPORTED_VERSIONS =
      ImmutableList.of("v1.DRAPlugin", "v1beta1.DRAPlugin");

  private final Path draSocket;
  private final AtomicBoolean registered = new AtomicBoolean();

  /** {@code draSocket}: the DRA service socket's path as the kubelet sees it. */
  public PluginRegistrationService(Path draSocket) {
    this.draSocket = requireNonNull(draSocket, "draSocket is null");
  }

  /** Whether the kubelet's last word was that it registered the driver. */
  public boolean registered() {
    return registered.get();
  }

  @Override
  public void getInfo(InfoRequest request, StreamObserver<PluginInfo> response) {
    response.onNext(
        PluginInfo.newBuilder()
            .setType(TYPE)
            .setName(DriverNames.DRIVER)
            .setEndpoint(draSocket.toString())
            .addAllSupportedVersions(SUPPORTED_VERSIONS)
            .build());
    response.onCompleted();
  }

  @Override
  public void notifyRegistrationStatus(
      RegistrationStatus status, StreamObserver<RegistrationStatusResponse> response) {
    registered.set(status.getPluginRegistered());
    if (!status.getPluginRegistered()) {
      String error =
          "the kubelet did not register " + DriverNames.DRIVER + ": " + status.getError();
      log.error(error);
      response.onError(Status.FAILED_PRECONDITION.withDescription(error).asException());
      return;
    }
    log.info("the kubelet registered {} at {}", DriverNames.DRIVER, draSocket);
    response.onNext(RegistrationStatusResponse.getDefaultInstance());
    response.onCompleted();
  }
}
