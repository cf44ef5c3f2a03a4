package io.gantry.proto.deviceplugin.v1beta1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.proto.testing.InProcessGrpc;
import io.gantry.proto.testing.ProtoContract;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class DevicePluginGrpcTest {

  @Test
  void packageAndWirePathsAreTheKubelets() {
    assertThat(DevicePluginProto.getDescriptor().getPackage()).isEqualTo("v1beta1");
    assertThat(DevicePluginGrpc.SERVICE_NAME).isEqualTo("v1beta1.DevicePlugin");
    assertThat(DevicePluginGrpc.getListAndWatchMethod().getFullMethodName())
        .isEqualTo("v1beta1.DevicePlugin/ListAndWatch");
    assertThat(
            ProtoContract.methods(
                DevicePluginProto.getDescriptor().findServiceByName("DevicePlugin")))
        .containsExactly(
            "/v1beta1.DevicePlugin/GetDevicePluginOptions Empty -> DevicePluginOptions",
            "/v1beta1.DevicePlugin/ListAndWatch Empty -> stream ListAndWatchResponse",
            "/v1beta1.DevicePlugin/GetPreferredAllocation PreferredAllocationRequest -> PreferredAllocationResponse",
            "/v1beta1.DevicePlugin/Allocate AllocateRequest -> AllocateResponse",
            "/v1beta1.DevicePlugin/PreStartContainer PreStartContainerRequest -> PreStartContainerResponse");
  }

  @Test
  void messagesMatchTheContractFieldForField() {
    assertThat(ProtoContract.fields(DevicePluginProto.getDescriptor()))
        .containsExactly(
            "DevicePluginOptions: pre_start_required = 1 : bool",
            "DevicePluginOptions: get_preferred_allocation_available = 2 : bool",
            "RegisterRequest: version = 1 : string",
            "RegisterRequest: endpoint = 2 : string",
            "RegisterRequest: resource_name = 3 : string",
            "RegisterRequest: options = 4 : DevicePluginOptions",
            "ListAndWatchResponse: devices = 1 : repeated Device",
            "TopologyInfo: nodes = 1 : repeated NUMANode",
            "NUMANode: ID = 1 : int64",
            "Device: ID = 1 : string",
            "Device: health = 2 : string",
            "Device: topology = 3 : TopologyInfo",
            "PreStartContainerRequest: devices_ids = 1 : repeated string",
            "PreferredAllocationRequest: container_requests = 1 : repeated ContainerPreferredAllocationRequest",
            "ContainerPreferredAllocationRequest: available_deviceIDs = 1 : repeated string",
            "ContainerPreferredAllocationRequest: must_include_deviceIDs = 2 : repeated string",
            "ContainerPreferredAllocationRequest: allocation_size = 3 : int32",
            "PreferredAllocationResponse: container_responses = 1 : repeated ContainerPreferredAllocationResponse",
            "ContainerPreferredAllocationResponse: deviceIDs = 1 : repeated string",
            "AllocateRequest: container_requests = 1 : repeated ContainerAllocateRequest",
            "ContainerAllocateRequest: devices_ids = 1 : repeated string",
            "CDIDevice: name = 1 : string",
            "AllocateResponse: container_responses = 1 : repeated ContainerAllocateResponse",
            "ContainerAllocateResponse: envs = 1 : map<string,string>",
            "ContainerAllocateResponse: mounts = 2 : repeated Mount",
            "ContainerAllocateResponse: devices = 3 : repeated DeviceSpec",
            "ContainerAllocateResponse: annotations = 4 : map<string,string>",
            "ContainerAllocateResponse: cdi_devices = 5 : repeated CDIDevice",
            "Mount: container_path = 1 : string",
            "Mount: host_path = 2 : string",
            "Mount: read_only = 3 : bool",
            "DeviceSpec: container_path = 1 : string",
            "DeviceSpec: host_path = 2 : string",
            "DeviceSpec: permissions = 3 : string");
    assertThat(DevicePluginProto.getDescriptor().getMessageTypes())
        .extracting(d -> d.getName())
        .contains("Empty", "PreStartContainerResponse");
  }

  @Test
  void deviceRoundTripsThroughBytes() throws Exception {
    Device device =
        Device.newBuilder()
            .setID("GPU-00000000-0000-0000-0000-000000000000")
            .setHealth("Healthy")
            .setTopology(TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(1)))
            .build();

    Device parsed = Device.parseFrom(device.toByteArray());

    assertThat(parsed).isEqualTo(device);
    assertThat(parsed.getTopology().getNodes(0).getID()).isEqualTo(1L);
  }

  @Test
  void aPluginAnswersTheKubeletOverGrpc() throws Exception {
    try (InProcessGrpc grpc = InProcessGrpc.serve(new TwoGpus())) {
      DevicePluginGrpc.DevicePluginBlockingStub kubelet =
          DevicePluginGrpc.newBlockingStub(grpc.channel());

      assertThat(kubelet.getDevicePluginOptions(Empty.getDefaultInstance()))
          .isEqualTo(DevicePluginOptions.newBuilder().setPreStartRequired(false).build());
      Iterator<ListAndWatchResponse> updates = kubelet.listAndWatch(Empty.getDefaultInstance());
      List<String> ids = new ArrayList<>();
      updates.next().getDevicesList().forEach(d -> ids.add(d.getID() + " " + d.getHealth()));
      assertThat(ids).containsExactly("gpu-0 Healthy", "gpu-1 Unhealthy");
      assertThat(kubelet.getPreferredAllocation(PreferredAllocationRequest.getDefaultInstance()))
          .isEqualTo(PreferredAllocationResponse.getDefaultInstance());

      AllocateResponse allocated =
          kubelet.allocate(
              AllocateRequest.newBuilder()
                  .addContainerRequests(
                      ContainerAllocateRequest.newBuilder().addDevicesIds("gpu-0"))
                  .build());
      assertThat(allocated.getContainerResponses(0).getEnvsMap())
          .containsEntry("NVIDIA_VISIBLE_DEVICES", "gpu-0");
      assertThat(allocated.getContainerResponses(0).getCdiDevices(0).getName())
          .isEqualTo("nvidia.com/gpu=gpu-0");
    }
  }

  @Test
  void aMethodTheServerRefusesReachesTheClientAsItsStatus() throws Exception {
    try (InProcessGrpc grpc = InProcessGrpc.serve(new TwoGpus())) {
      DevicePluginGrpc.DevicePluginBlockingStub kubelet =
          DevicePluginGrpc.newBlockingStub(grpc.channel());

      assertThatThrownBy(
              () -> kubelet.preStartContainer(PreStartContainerRequest.getDefaultInstance()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION))
          .hasMessage("FAILED_PRECONDITION: pre_start_required is false");
    }
  }

  /** A plugin with two GPUs, one unhealthy. */
  private static final class TwoGpus extends DevicePluginGrpc.DevicePluginImplBase {
    @Override
    public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> out) {
      out.onNext(DevicePluginOptions.getDefaultInstance());
      out.onCompleted();
    }

    @Override
    public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> out) {
      out.onNext(
          ListAndWatchResponse.newBuilder()
              .addDevices(Device.newBuilder().setID("gpu-0").setHealth("Healthy"))
              .addDevices(Device.newBuilder().setID("gpu-1").setHealth("Unhealthy"))
              .build());
      out.onCompleted();
    }

    @Override
    public void getPreferredAllocation(
        PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> out) {
      out.onNext(PreferredAllocationResponse.getDefaultInstance());
      out.onCompleted();
    }

    @Override
    public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> out) {
      AllocateResponse.Builder response = AllocateResponse.newBuilder();
      for (ContainerAllocateRequest c : request.getContainerRequestsList()) {
        String ids = String.join(",", c.getDevicesIdsList());
        response.addContainerResponses(
            ContainerAllocateResponse.newBuilder()
                .putEnvs("NVIDIA_VISIBLE_DEVICES", ids)
                .addCdiDevices(CDIDevice.newBuilder().setName("nvidia.com/gpu=" + ids)));
      }
      out.onNext(response.build());
      out.onCompleted();
    }

    @Override
    public void preStartContainer(
        PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> out) {
      out.onError(
          Status.FAILED_PRECONDITION.withDescription("pre_start_required is false").asException());
    }
  }
}
