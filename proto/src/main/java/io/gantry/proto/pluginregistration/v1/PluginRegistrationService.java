package io.gantry.proto.pluginregistration.v1;

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
 * gRPC binding of {@code pluginregistration.Registration}: the service a kubelet plugin (DRA
 * driver, CSI driver or device plugin) serves on its socket in {@code
 * /var/lib/kubelet/plugins_registry/}.
 */
public final class PluginRegistrationService {
  private static final ProtoMethods PROTO =
      ProtoMethods.of(PluginRegistrationProto.getDescriptor(), "Registration");

  /** Full service name on the wire. */
  public static final String SERVICE_NAME = PROTO.serviceName();

  /** Method {@code GetInfo}: the plugin's type, name, endpoint and versions. */
  public static final MethodDescriptor<InfoRequest, PluginInfo> GET_INFO =
      PROTO.unary("GetInfo", InfoRequest.getDefaultInstance(), PluginInfo.getDefaultInstance());

  /**
   * Method {@code NotifyRegistrationStatus}: the kubelet reports whether registration succeeded.
   */
  public static final MethodDescriptor<RegistrationStatus, RegistrationStatusResponse>
      NOTIFY_REGISTRATION_STATUS =
          PROTO.unary(
              "NotifyRegistrationStatus",
              RegistrationStatus.getDefaultInstance(),
              RegistrationStatusResponse.getDefaultInstance());

  /** The service with all its methods. */
  public static final ServiceDescriptor SERVICE_DESCRIPTOR =
      PROTO.serviceDescriptor(GET_INFO, NOTIFY_REGISTRATION_STATUS);

  private PluginRegistrationService() {}

  /**
   * What a plugin implements. The kubelet calls {@code getInfo}, registers the plugin and reports
   * the outcome through {@code notifyRegistrationStatus}; it calls {@code getInfo} again as a
   * health check.
   */
  public interface AsyncService {
    void getInfo(InfoRequest request, StreamObserver<PluginInfo> responses);

    void notifyRegistrationStatus(
        RegistrationStatus request, StreamObserver<RegistrationStatusResponse> responses);
  }

  /** Binds {@code service} for a gRPC server. */
  public static ServerServiceDefinition bindService(AsyncService service) {
    return ServerServiceDefinition.builder(SERVICE_DESCRIPTOR)
        .addMethod(GET_INFO, ServerCalls.asyncUnaryCall(service::getInfo))
        .addMethod(
            NOTIFY_REGISTRATION_STATUS,
            ServerCalls.asyncUnaryCall(service::notifyRegistrationStatus))
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

    public PluginInfo getInfo(InfoRequest request) {
      return ClientCalls.blockingUnaryCall(getChannel(), GET_INFO, getCallOptions(), request);
    }

    public RegistrationStatusResponse notifyRegistrationStatus(RegistrationStatus request) {
      return ClientCalls.blockingUnaryCall(
          getChannel(), NOTIFY_REGISTRATION_STATUS, getCallOptions(), request);
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

    public void getInfo(InfoRequest request, StreamObserver<PluginInfo> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(GET_INFO, getCallOptions()), request, responses);
    }

    public void notifyRegistrationStatus(
        RegistrationStatus request, StreamObserver<RegistrationStatusResponse> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(NOTIFY_REGISTRATION_STATUS, getCallOptions()), request, responses);
    }
  }
}
