package io.gantry.proto.dra.v1;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.proto.dra.v1.DraPluginV1Proto.Claim;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Device;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourceResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesRequest;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourceResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesRequest;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesResponse;
import io.gantry.proto.testing.InProcessGrpc;
import io.gantry.proto.testing.ProtoContract;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.Test;

class DraPluginGrpcTest {

  @Test
  void serviceAndPathsAreTheKubelets() {
    assertThat(DraPluginV1Proto.getDescriptor().getPackage())
        .isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1");
    assertThat(DRAPluginGrpc.SERVICE_NAME).isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin");
    assertThat(
            ProtoContract.methods(DraPluginV1Proto.getDescriptor().findServiceByName("DRAPlugin")))
        .containsExactly(
            "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources"
                + " NodePrepareResourcesRequest -> NodePrepareResourcesResponse",
            "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodeUnprepareResources"
                + " NodeUnprepareResourcesRequest -> NodeUnprepareResourcesResponse");
  }

  @Test
  void messagesMatchTheContractFieldForField() {
    assertThat(ProtoContract.fields(DraPluginV1Proto.getDescriptor()))
        .containsExactly(
            "NodePrepareResourcesRequest: claims = 1 : repeated Claim",
            "NodePrepareResourcesResponse: claims = 1 : map<string,NodePrepareResourceResponse>",
            "NodePrepareResourceResponse: devices = 1 : repeated Device",
            "NodePrepareResourceResponse: error = 2 : string",
            "Device: request_names = 1 : repeated string",
            "Device: pool_name = 2 : string",
            "Device: device_name = 3 : string",
            "Device: cdi_device_ids = 4 : repeated string",
            "Device: share_id = 5 : optional string",
            "NodeUnprepareResourcesRequest: claims = 1 : repeated Claim",
            "NodeUnprepareResourcesResponse: claims = 1 : map<string,NodeUnprepareResourceResponse>",
            "NodeUnprepareResourceResponse: error = 1 : string",
            "Claim: namespace = 1 : string",
            "Claim: uid = 2 : string",
            "Claim: name = 3 : string");
  }

  @Test
  void theKubeletGetsOneAnswerPerClaimUid() {
    DRAPluginGrpc.AsyncService driver =
        new DRAPluginGrpc.AsyncService() {
          @Override
          public void nodePrepareResources(
              NodePrepareResourcesRequest request,
              StreamObserver<NodePrepareResourcesResponse> out) {
            NodePrepareResourcesResponse.Builder response =
                NodePrepareResourcesResponse.newBuilder();
            for (Claim claim : request.getClaimsList()) {
              response.putClaims(
                  claim.getUid(),
                  NodePrepareResourceResponse.newBuilder()
                      .addDevices(
                          Device.newBuilder()
                              .setPoolName("node-a")
                              .setDeviceName("gpu-0")
                              .addCdiDeviceIds(
                                  "k8s.gpu.gantry.io/claim=" + claim.getUid() + "-gpu-0"))
                      .build());
            }
            out.onNext(response.build());
            out.onCompleted();
          }

          @Override
          public void nodeUnprepareResources(
              NodeUnprepareResourcesRequest request,
              StreamObserver<NodeUnprepareResourcesResponse> out) {
            NodeUnprepareResourcesResponse.Builder response =
                NodeUnprepareResourcesResponse.newBuilder();
            request
                .getClaimsList()
                .forEach(
                    c ->
                        response.putClaims(
                            c.getUid(),
                            NodeUnprepareResourceResponse.newBuilder()
                                .setError("claim " + c.getName() + " is unknown")
                                .build()));
            out.onNext(response.build());
            out.onCompleted();
          }
        };

    try (InProcessGrpc grpc = InProcessGrpc.serve(DRAPluginGrpc.bindService(driver))) {
      DRAPluginGrpc.DRAPluginBlockingStub kubelet = DRAPluginGrpc.newBlockingStub(grpc.channel());
      Claim claim = Claim.newBuilder().setNamespace("ns").setUid("u-1").setName("c").build();

      NodePrepareResourcesResponse prepared =
          kubelet.nodePrepareResources(
              NodePrepareResourcesRequest.newBuilder().addClaims(claim).build());
      NodeUnprepareResourcesResponse unprepared =
          kubelet.nodeUnprepareResources(
              NodeUnprepareResourcesRequest.newBuilder().addClaims(claim).build());

      assertThat(prepared.getClaimsMap()).containsOnlyKeys("u-1");
      assertThat(prepared.getClaimsOrThrow("u-1").getDevices(0).getCdiDeviceIdsList())
          .containsExactly("k8s.gpu.gantry.io/claim=u-1-gpu-0");
      assertThat(unprepared.getClaimsOrThrow("u-1").getError()).isEqualTo("claim c is unknown");
    }
  }
}
