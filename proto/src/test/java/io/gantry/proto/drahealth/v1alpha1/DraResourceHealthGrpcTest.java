package io.gantry.proto.drahealth.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.proto.drahealth.v1alpha1.DraHealthV1alpha1Proto.DeviceHealth;
import io.gantry.proto.drahealth.v1alpha1.DraHealthV1alpha1Proto.DeviceIdentifier;
import io.gantry.proto.drahealth.v1alpha1.DraHealthV1alpha1Proto.HealthStatus;
import io.gantry.proto.drahealth.v1alpha1.DraHealthV1alpha1Proto.NodeWatchResourcesRequest;
import io.gantry.proto.drahealth.v1alpha1.DraHealthV1alpha1Proto.NodeWatchResourcesResponse;
import io.gantry.proto.testing.InProcessGrpc;
import io.gantry.proto.testing.ProtoContract;
import io.grpc.stub.StreamObserver;
import java.util.Iterator;
import org.junit.jupiter.api.Test;

class DraResourceHealthGrpcTest {

  @Test
  void serviceIsV1alpha1DraResourceHealthWithAServerStream() {
    assertThat(DraHealthV1alpha1Proto.getDescriptor().getPackage()).isEqualTo("v1alpha1");
    assertThat(DRAResourceHealthGrpc.SERVICE_NAME).isEqualTo("v1alpha1.DRAResourceHealth");
    assertThat(
            ProtoContract.methods(
                DraHealthV1alpha1Proto.getDescriptor().findServiceByName("DRAResourceHealth")))
        .containsExactly(
            "/v1alpha1.DRAResourceHealth/NodeWatchResources NodeWatchResourcesRequest -> stream"
                + " NodeWatchResourcesResponse");
  }

  @Test
  void messagesAndEnumMatchTheContract() {
    assertThat(ProtoContract.fields(DraHealthV1alpha1Proto.getDescriptor()))
        .containsExactly(
            "NodeWatchResourcesResponse: devices = 1 : repeated DeviceHealth",
            "DeviceHealth: device = 1 : DeviceIdentifier",
            "DeviceHealth: health = 2 : HealthStatus",
            "DeviceHealth: last_updated_time = 3 : int64",
            "DeviceIdentifier: pool_name = 1 : string",
            "DeviceIdentifier: device_name = 2 : string");
    assertThat(HealthStatus.UNKNOWN.getNumber()).isZero();
    assertThat(HealthStatus.HEALTHY.getNumber()).isEqualTo(1);
    assertThat(HealthStatus.UNHEALTHY.getNumber()).isEqualTo(2);
  }

  @Test
  void theKubeletReadsTheCompleteListFromTheStream() {
    NodeWatchResourcesResponse list =
        NodeWatchResourcesResponse.newBuilder()
            .addDevices(
                DeviceHealth.newBuilder()
                    .setDevice(
                        DeviceIdentifier.newBuilder().setPoolName("node-a").setDeviceName("gpu-0"))
                    .setHealth(HealthStatus.UNHEALTHY)
                    .setLastUpdatedTime(1_700_000_000L))
            .build();
    DRAResourceHealthGrpc.AsyncService driver =
        new DRAResourceHealthGrpc.AsyncService() {
          @Override
          public void nodeWatchResources(
              NodeWatchResourcesRequest request, StreamObserver<NodeWatchResourcesResponse> out) {
            out.onNext(list);
            out.onCompleted();
          }
        };

    try (InProcessGrpc grpc = InProcessGrpc.serve(DRAResourceHealthGrpc.bindService(driver))) {
      Iterator<NodeWatchResourcesResponse> stream =
          DRAResourceHealthGrpc.newBlockingStub(grpc.channel())
              .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance());

      assertThat(stream.next()).isEqualTo(list);
      assertThat(stream.hasNext()).isFalse();
    }
  }
}
