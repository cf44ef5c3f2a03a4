package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gantry.proto.dra.v1.DraPluginV1Proto.Claim;
import io.gantry.proto.dra.v1beta1.DRAPluginGrpc;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.Device;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodePrepareResourceResponse;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodePrepareResourcesRequest;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodePrepareResourcesResponse;
import io.gantry.proto.pluginregistration.v1.InfoRequest;
import io.gantry.proto.pluginregistration.v1.PluginInfo;
import io.gantry.proto.pluginregistration.v1.RegistrationGrpc;
import io.gantry.proto.pluginregistration.v1.RegistrationStatus;
import io.gantry.proto.pluginregistration.v1.RegistrationStatusResponse;
import io.gantry.proto.uds.UnixSocketServer;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake plugin watcher: discovery by socket, the kubelet's checks, version choice, calls. */
class PluginWatcherTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;

  private final List<UnixSocketServer> servers = new java.util.ArrayList<>();

  @org.junit.jupiter.api.AfterEach
  void closeServers() {
    servers.forEach(UnixSocketServer::close);
  }

  private UnixSocketServer serve(Path socket, io.grpc.BindableService service) throws Exception {
    UnixSocketServer server = UnixSocketServer.start(socket, List.of(service));
    servers.add(server);
    return server;
  }

  /** A registration service that records the kubelet's verdicts and refuses a refusal. */
  private static final class Registration extends RegistrationGrpc.RegistrationImplBase {
    private final PluginInfo info;
    final List<RegistrationStatus> statuses = new CopyOnWriteArrayList<>();

    Registration(PluginInfo info) {
      this.info = info;
    }

    @Override
    public void getInfo(InfoRequest request, StreamObserver<PluginInfo> out) {
      out.onNext(info);
      out.onCompleted();
    }

    @Override
    public void notifyRegistrationStatus(
        RegistrationStatus status, StreamObserver<RegistrationStatusResponse> out) {
      statuses.add(status);
      if (!status.getPluginRegistered()) {
        out.onError(Status.FAILED_PRECONDITION.withDescription(status.getError()).asException());
        return;
      }
      out.onNext(RegistrationStatusResponse.getDefaultInstance());
      out.onCompleted();
    }
  }

  /** A v1beta1-only driver that prepares every claim as device gpu-0. */
  private static final class OldDriver extends DRAPluginGrpc.DRAPluginImplBase {
    @Override
    public void nodePrepareResources(
        NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> out) {
      NodePrepareResourcesResponse.Builder answer = NodePrepareResourcesResponse.newBuilder();
      request
          .getClaimsList()
          .forEach(
              c ->
                  answer.putClaims(
                      c.getUid(),
                      NodePrepareResourceResponse.newBuilder()
                          .addDevices(
                              Device.newBuilder()
                                  .setPoolName("node-a")
                                  .setDeviceName("gpu-0")
                                  .addCdiDeviceIds("vendor.example/claim=" + c.getUid()))
                          .build()));
      out.onNext(answer.build());
      out.onCompleted();
    }
  }

  private PluginInfo info(String type, Path endpoint, String... versions) {
    return PluginInfo.newBuilder()
        .setType(type)
        .setName("gpu.example.com")
        .setEndpoint(endpoint.toString())
        .addAllSupportedVersions(List.of(versions))
        .build();
  }

  @Test
  void aDriverAdvertisingOnlyV1beta1IsRegisteredOnV1beta1AndCalledThere() throws Exception {
    Path registry = Files.createDirectories(dir.resolve("registry"));
    Path draSocket = dir.resolve("dra.sock");
    Registration registration = new Registration(info("DRAPlugin", draSocket, "v1beta1.DRAPlugin"));
    serve(draSocket, new OldDriver());
    serve(registry.resolve("gpu.example.com-reg.sock"), registration);
    try (FakePluginWatcher kubelet = FakePluginWatcher.start(registry)) {
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(kubelet.registered("gpu.example.com"))
                      .hasValueSatisfying(
                          r -> assertThat(r.version()).isEqualTo("v1beta1.DRAPlugin")));
      // the watcher notifies the registration status after it records the plugin
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(registration.statuses)
                      .extracting(RegistrationStatus::getPluginRegistered)
                      .containsExactly(true));

      io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesResponse answer =
          kubelet.prepare(
              "gpu.example.com",
              List.of(Claim.newBuilder().setNamespace("ns").setName("c").setUid("u1").build()));

      assertThat(answer.getClaimsOrThrow("u1").getDevices(0).getCdiDeviceIdsList())
          .containsExactly("vendor.example/claim=u1");
    }
  }

  @Test
  void aRemovedSocketUnregistersTheDriver() throws Exception {
    Path registry = Files.createDirectories(dir.resolve("registry"));
    Path draSocket = dir.resolve("dra.sock");
    Registration registration = new Registration(info("DRAPlugin", draSocket, "v1.DRAPlugin"));
    serve(draSocket, new OldDriver());
    try (FakePluginWatcher kubelet = FakePluginWatcher.start(registry)) {
      UnixSocketServer reg = serve(registry.resolve("gpu.example.com-reg.sock"), registration);
      await().atMost(WAIT).until(() -> kubelet.registered("gpu.example.com").isPresent());

      reg.close();

      await().atMost(WAIT).until(() -> kubelet.registered("gpu.example.com").isEmpty());
      assertThatThrownBy(() -> kubelet.prepare("gpu.example.com", List.of()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no DRA driver gpu.example.com registered");
    }
  }

  @Test
  void theKubeletRefusesAWrongTypeAnUnknownVersionAndAMissingEndpoint() throws Exception {
    Path registry = Files.createDirectories(dir.resolve("registry"));
    Path draSocket = dir.resolve("dra.sock");
    serve(draSocket, new OldDriver());
    serve(
        registry.resolve("a-reg.sock"),
        new Registration(info("CSIPlugin", draSocket, "v1.DRAPlugin")));
    serve(
        registry.resolve("b-reg.sock"),
        new Registration(info("DRAPlugin", draSocket, "v2.DRAPlugin")));
    serve(
        registry.resolve("c-reg.sock"),
        new Registration(info("DRAPlugin", dir.resolve("missing.sock"), "v1.DRAPlugin")));
    try (FakePluginWatcher kubelet = FakePluginWatcher.start(registry)) {
      await().atMost(WAIT).until(() -> kubelet.refusals().size() == 3);

      assertThat(kubelet.refusals())
          .extracting(FakePluginWatcher.Refusal::socketFile, FakePluginWatcher.Refusal::error)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(
                  "a-reg.sock", "no handler registered for plugin type: CSIPlugin"),
              org.assertj.core.groups.Tuple.tuple(
                  "b-reg.sock",
                  "none of the versions supported by the plugin [v2.DRAPlugin] are supported by the"
                      + " kubelet [v1.DRAPlugin, v1beta1.DRAPlugin]"),
              org.assertj.core.groups.Tuple.tuple(
                  "c-reg.sock",
                  "DRA plugin endpoint " + dir.resolve("missing.sock") + " does not exist"));
      assertThat(kubelet.registrations()).isEmpty();
    }
  }
}
