package io.gantry.proto.pluginregistration.v1;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.proto.testing.InProcessGrpc;
import io.gantry.proto.testing.ProtoContract;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistrationGrpcTest {

  @Test
  void packageIsPluginregistrationNotV1() {
    assertThat(PluginRegistrationProto.getDescriptor().getPackage())
        .isEqualTo("pluginregistration");
    assertThat(RegistrationGrpc.SERVICE_NAME).isEqualTo("pluginregistration.Registration");
    assertThat(
            ProtoContract.methods(
                PluginRegistrationProto.getDescriptor().findServiceByName("Registration")))
        .containsExactly(
            "/pluginregistration.Registration/GetInfo InfoRequest -> PluginInfo",
            "/pluginregistration.Registration/NotifyRegistrationStatus RegistrationStatus ->"
                + " RegistrationStatusResponse");
  }

  @Test
  void messagesMatchTheContractFieldForField() {
    assertThat(ProtoContract.fields(PluginRegistrationProto.getDescriptor()))
        .containsExactly(
            "PluginInfo: type = 1 : string",
            "PluginInfo: name = 2 : string",
            "PluginInfo: endpoint = 3 : string",
            "PluginInfo: supported_versions = 4 : repeated string",
            "RegistrationStatus: plugin_registered = 1 : bool",
            "RegistrationStatus: error = 2 : string");
  }

  @Test
  void theKubeletAsksForInfoAndReportsTheOutcome() throws Exception {
    PluginInfo info =
        PluginInfo.newBuilder()
            .setType("DRAPlugin")
            .setName("gpu.nvidia.com")
            .setEndpoint("/var/lib/kubelet/plugins/gpu.nvidia.com/dra.sock")
            .addSupportedVersions("v1.DRAPlugin")
            .addSupportedVersions("v1beta1.DRAPlugin")
            .build();
    List<RegistrationStatus> statuses = new ArrayList<>();
    RegistrationGrpc.AsyncService plugin =
        new RegistrationGrpc.AsyncService() {
          @Override
          public void getInfo(InfoRequest request, StreamObserver<PluginInfo> out) {
            out.onNext(info);
            out.onCompleted();
          }

          @Override
          public void notifyRegistrationStatus(
              RegistrationStatus status, StreamObserver<RegistrationStatusResponse> out) {
            statuses.add(status);
            out.onNext(RegistrationStatusResponse.getDefaultInstance());
            out.onCompleted();
          }
        };

    try (InProcessGrpc grpc = InProcessGrpc.serve(RegistrationGrpc.bindService(plugin))) {
      RegistrationGrpc.RegistrationBlockingStub kubelet =
          RegistrationGrpc.newBlockingStub(grpc.channel());
      assertThat(kubelet.getInfo(InfoRequest.getDefaultInstance())).isEqualTo(info);
      kubelet.notifyRegistrationStatus(
          RegistrationStatus.newBuilder().setPluginRegistered(true).build());
    }

    assertThat(statuses).extracting(RegistrationStatus::getPluginRegistered).containsExactly(true);
  }
}
