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
import java.util.Iterator;

/**
 * gRPC binding of {@code v1beta1.DevicePlugin}: the service a device plugin serves on its socket in
 * {@code /var/lib/kubelet/device-plugins/} and the kubelet calls.
 */
public final class DevicePluginService {
  private static final ProtoMethods PROTO =
      ProtoMethods.of(DevicePluginProto.getDescriptor(), "DevicePlugin");

  /** Full service name on the wire. */
  public static final String SERVICE_NAME = PROTO.serviceName();

  /** Method {@code GetDevicePluginOptions}: the plugin's options. */
  public static final MethodDescriptor<Empty, DevicePluginOptions> GET_DEVICE_PLUGIN_OPTIONS =
      PROTO.unary(
          "GetDevicePluginOptions",
          Empty.getDefaultInstance(),
          DevicePluginOptions.getDefaultInstance());

  /** Method {@code ListAndWatch}: the full device list, resent on every health change. */
  public static final MethodDescriptor<Empty, ListAndWatchResponse> LIST_AND_WATCH =
      PROTO.serverStreaming(
          "ListAndWatch", Empty.getDefaultInstance(), ListAndWatchResponse.getDefaultInstance());

  /** Method {@code GetPreferredAllocation}: preferred devices for an allocation. */
  public static final MethodDescriptor<PreferredAllocationRequest, PreferredAllocationResponse>
      GET_PREFERRED_ALLOCATION =
          PROTO.unary(
              "GetPreferredAllocation",
              PreferredAllocationRequest.getDefaultInstance(),
              PreferredAllocationResponse.getDefaultInstance());

  /** Method {@code Allocate}: what each container gets (env, mounts, devices, CDI names). */
  public static final MethodDescriptor<AllocateRequest, AllocateResponse> ALLOCATE =
      PROTO.unary(
          "Allocate", AllocateRequest.getDefaultInstance(), AllocateResponse.getDefaultInstance());

  /** Method {@code PreStartContainer}: called before a container starts. */
  public static final MethodDescriptor<PreStartContainerRequest, PreStartContainerResponse>
      PRE_START_CONTAINER =
          PROTO.unary(
              "PreStartContainer",
              PreStartContainerRequest.getDefaultInstance(),
              PreStartContainerResponse.getDefaultInstance());

  /** The service with all its methods. */
  public static final ServiceDescriptor SERVICE_DESCRIPTOR =
      PROTO.serviceDescriptor(
          GET_DEVICE_PLUGIN_OPTIONS,
          LIST_AND_WATCH,
          GET_PREFERRED_ALLOCATION,
          ALLOCATE,
          PRE_START_CONTAINER);

  private DevicePluginService() {}

  /**
   * What a device plugin implements. The kubelet calls {@code getDevicePluginOptions} after
   * registration, keeps {@code listAndWatch} open, calls {@code getPreferredAllocation} and {@code
   * preStartContainer} only when the options say so, and {@code allocate} at container creation.
   */
  public interface AsyncService {
    void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> responses);

    void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> responses);

    void getPreferredAllocation(
        PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> responses);

    void allocate(AllocateRequest request, StreamObserver<AllocateResponse> responses);

    void preStartContainer(
        PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> responses);
  }

  /** Binds {@code service} for a gRPC server. */
  public static ServerServiceDefinition bindService(AsyncService service) {
    return ServerServiceDefinition.builder(SERVICE_DESCRIPTOR)
        .addMethod(
            GET_DEVICE_PLUGIN_OPTIONS, ServerCalls.asyncUnaryCall(service::getDevicePluginOptions))
        .addMethod(LIST_AND_WATCH, ServerCalls.asyncServerStreamingCall(service::listAndWatch))
        .addMethod(
            GET_PREFERRED_ALLOCATION, ServerCalls.asyncUnaryCall(service::getPreferredAllocation))
        .addMethod(ALLOCATE, ServerCalls.asyncUnaryCall(service::allocate))
        .addMethod(PRE_START_CONTAINER, ServerCalls.asyncUnaryCall(service::preStartContainer))
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

    public DevicePluginOptions getDevicePluginOptions(Empty request) {
      return ClientCalls.blockingUnaryCall(
          getChannel(), GET_DEVICE_PLUGIN_OPTIONS, getCallOptions(), request);
    }

    public Iterator<ListAndWatchResponse> listAndWatch(Empty request) {
      return ClientCalls.blockingServerStreamingCall(
          getChannel(), LIST_AND_WATCH, getCallOptions(), request);
    }

    public PreferredAllocationResponse getPreferredAllocation(PreferredAllocationRequest request) {
      return ClientCalls.blockingUnaryCall(
          getChannel(), GET_PREFERRED_ALLOCATION, getCallOptions(), request);
    }

    public AllocateResponse allocate(AllocateRequest request) {
      return ClientCalls.blockingUnaryCall(getChannel(), ALLOCATE, getCallOptions(), request);
    }

    public PreStartContainerResponse preStartContainer(PreStartContainerRequest request) {
      return ClientCalls.blockingUnaryCall(
          getChannel(), PRE_START_CONTAINER, getCallOptions(), request);
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

    public void getDevicePluginOptions(
        Empty request, StreamObserver<DevicePluginOptions> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(GET_DEVICE_PLUGIN_OPTIONS, getCallOptions()), request, responses);
    }

    public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> responses) {
      ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(LIST_AND_WATCH, getCallOptions()), request, responses);
    }

    public void getPreferredAllocation(
        PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(GET_PREFERRED_ALLOCATION, getCallOptions()), request, responses);
    }

    public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(ALLOCATE, getCallOptions()), request, responses);
    }

    public void preStartContainer(
        PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(PRE_START_CONTAINER, getCallOptions()), request, responses);
    }
  }
}
