package io.gantry.proto.deviceplugin.v1beta1;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.proto.testing.InProcessGrpc;
import io.gantry.proto.testing.ProtoContract;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistrationGrpcTest {

  @Test
  void registerHasTheKubeletsWirePath() {
    assertThat(RegistrationGrpc.SERVICE_NAME).isEqualTo("v1beta1.Registration");
    assertThat(
            ProtoContract.methods(
                DevicePluginProto.getDescriptor().findServiceByName("Registration")))
        .containsExactly("/v1beta1.Registration/Register RegisterRequest -> Empty");
  }

  @Test
  void aPluginRegistersWithTheKubelet() throws Exception {
    List<RegisterRequest> received = new ArrayList<>();
    RegistrationGrpc.RegistrationImplBase kubelet =
        new RegistrationGrpc.RegistrationImplBase() {
          @Override
          public void register(RegisterRequest request, StreamObserver<Empty> out) {
            received.add(request);
            out.onNext(Empty.getDefaultInstance());
            out.onCompleted();
          }
        };
    RegisterRequest request =
        RegisterRequest.newBuilder()
            .setVersion("v1beta1")
            .setEndpoint("gantry-gpu.sock")
            .setResourceName("nvidia.com/gpu")
            .setOptions(DevicePluginOptions.newBuilder().setGetPreferredAllocationAvailable(true))
            .build();

    try (InProcessGrpc grpc = InProcessGrpc.serve(kubelet)) {
      RegistrationGrpc.newBlockingStub(grpc.channel()).register(request);
    }

    assertThat(received).containsExactly(request);
  }
}
