package io.gantry.proto.deviceplugin.v1beta1;

import io.gantry.proto.grpc.ProtoMethods;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.stub.AbstractAsyncStub;
import io.grpc.stub.AbstractBlockingStub;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;

/**
 * gRPC binding of {@code v1beta1.Registration}: the service the kubelet serves on {@code
 * /var/lib/kubelet/device-plugins/kubelet.sock}, where a device plugin registers.
 */
public final class DevicePluginRegistrationService {
  private static final ProtoMethods PROTO =
      ProtoMethods.of(DevicePluginProto.getDescriptor(), "Registration");

  /** Full service name on the wire. */
  public static final String SERVICE_NAME = PROTO.serviceName();

  /** Method {@code Register}: a device plugin announces its resource and socket. */
  public static final MethodDescriptor<RegisterRequest, Empty> REGISTER =
      PROTO.unary("Register", RegisterRequest.getDefaultInstance(), Empty.getDefaultInstance());

  /** The service with all its methods. */
  public static final ServiceDescriptor SERVICE_DESCRIPTOR = PROTO.serviceDescriptor(REGISTER);

  private DevicePluginRegistrationService() {}

  /** What the kubelet implements (tests implement it to play the kubelet). */
  public interface AsyncService {
    void register(RegisterRequest request, StreamObserver<Empty> responses);
  }

  /** Binds {@code service} for a gRPC server. */
  public static ServerServiceDefinition bindService(AsyncService service) {
    return ServerServiceDefinition.builder(SERVICE_DESCRIPTOR)
        .addMethod(REGISTER, ServerCalls.asyncUnaryCall(service::register))
        .build();
  }

  /** A client that waits for each answer. */
  public static BlockingStub newBlockingStub(Channel channel) {
    return new BlockingStub(channel, CallOptions.DEFAULT);
  }

  /** A client that delivers answers to a {@link StreamObserver}. */
  public static Stub newStub(Channel channel) {
    return new Stub(channel, CallOptions.DEFAULT);
  }

  /** Blocking client. */
  public static final class BlockingStub extends AbstractBlockingStub<BlockingStub> {
    private BlockingStub(Channel channel, CallOptions options) {
      super(channel, options);
    }

    @Override
    protected BlockingStub build(Channel channel, CallOptions options) {
      return new BlockingStub(channel, options);
    }

    public Empty register(RegisterRequest request) {
      return ClientCalls.blockingUnaryCall(getChannel(), REGISTER, getCallOptions(), request);
    }
  }

  /** Asynchronous client. */
  public static final class Stub extends AbstractAsyncStub<Stub> {
    private Stub(Channel channel, CallOptions options) {
      super(channel, options);
    }

    @Override
    protected Stub build(Channel channel, CallOptions options) {
      return new Stub(channel, options);
    }

    public void register(RegisterRequest request, StreamObserver<Empty> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(REGISTER, getCallOptions()), request, responses);
    }
  }
}
