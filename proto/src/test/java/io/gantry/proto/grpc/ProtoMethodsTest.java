package io.gantry.proto.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginProto;
import io.gantry.proto.deviceplugin.v1beta1.Empty;
import io.gantry.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import org.junit.jupiter.api.Test;

class ProtoMethodsTest {
  private final ProtoMethods devicePlugin =
      ProtoMethods.of(DevicePluginProto.getDescriptor(), "DevicePlugin");

  @Test
  void buildsAMethodAsDeclared() {
    MethodDescriptor<Empty, ListAndWatchResponse> m =
        devicePlugin.serverStreaming(
            "ListAndWatch", Empty.getDefaultInstance(), ListAndWatchResponse.getDefaultInstance());

    assertThat(m.getFullMethodName()).isEqualTo("v1beta1.DevicePlugin/ListAndWatch");
    assertThat(m.getType()).isEqualTo(MethodType.SERVER_STREAMING);
    assertThat(((ProtoMethodDescriptorSupplier) m.getSchemaDescriptor()).getMethodDescriptor())
        .isEqualTo(
            DevicePluginProto.getDescriptor()
                .findServiceByName("DevicePlugin")
                .findMethodByName("ListAndWatch"));
  }

  @Test
  void refusesAStreamingMethodBoundAsUnary() {
    assertThatThrownBy(
            () ->
                devicePlugin.unary(
                    "ListAndWatch",
                    Empty.getDefaultInstance(),
                    ListAndWatchResponse.getDefaultInstance()))
        .hasMessage(
            "v1beta1.DevicePlugin.ListAndWatch is SERVER_STREAMING in the proto, bound as UNARY");
  }

  @Test
  void refusesTheWrongResponseType() {
    assertThatThrownBy(
            () ->
                devicePlugin.serverStreaming(
                    "ListAndWatch",
                    Empty.getDefaultInstance(),
                    DevicePluginOptions.getDefaultInstance()))
        .hasMessage(
            "v1beta1.DevicePlugin.ListAndWatch response type is v1beta1.ListAndWatchResponse in"
                + " the proto, bound as v1beta1.DevicePluginOptions");
  }

  @Test
  void refusesUnknownServicesAndMethods() {
    assertThatThrownBy(() -> ProtoMethods.of(DevicePluginProto.getDescriptor(), "Kubelet"))
        .hasMessage("k8s/deviceplugin/v1beta1/api.proto declares no service Kubelet");
    assertThatThrownBy(
            () ->
                devicePlugin.unary(
                    "Deallocate", Empty.getDefaultInstance(), Empty.getDefaultInstance()))
        .hasMessage("v1beta1.DevicePlugin declares no method Deallocate");
  }
}
