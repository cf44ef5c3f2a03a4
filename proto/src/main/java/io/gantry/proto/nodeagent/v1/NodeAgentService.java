package io.gantry.proto.nodeagent.v1;

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
 * gRPC binding of {@code gantry.nodeagent.v1.NodeAgent}: the service Gantry's device agent serves
 * on each GPU node.
 */
public final class NodeAgentService {
  private static final ProtoMethods PROTO =
      ProtoMethods.of(NodeAgentProto.getDescriptor(), "NodeAgent");

  /** Full service name on the wire. */
  public static final String SERVICE_NAME = PROTO.serviceName();

  /** Method {@code GetNode}: the node's GPU inventory. */
  public static final MethodDescriptor<GetNodeRequest, Node> GET_NODE =
      PROTO.unary("GetNode", GetNodeRequest.getDefaultInstance(), Node.getDefaultInstance());

  /** Method {@code WatchEvents}: health and enforcement events as they happen. */
  public static final MethodDescriptor<WatchEventsRequest, NodeEvent> WATCH_EVENTS =
      PROTO.serverStreaming(
          "WatchEvents", WatchEventsRequest.getDefaultInstance(), NodeEvent.getDefaultInstance());

  /** The service with all its methods. */
  public static final ServiceDescriptor SERVICE_DESCRIPTOR =
      PROTO.serviceDescriptor(GET_NODE, WATCH_EVENTS);

  private NodeAgentService() {}

  /** What the device agent implements. */
  public interface AsyncService {
    void getNode(GetNodeRequest request, StreamObserver<Node> responses);

    void watchEvents(WatchEventsRequest request, StreamObserver<NodeEvent> responses);
  }

  /** Binds {@code service} for a gRPC server. */
  public static ServerServiceDefinition bindService(AsyncService service) {
    return ServerServiceDefinition.builder(SERVICE_DESCRIPTOR)
        .addMethod(GET_NODE, ServerCalls.asyncUnaryCall(service::getNode))
        .addMethod(WATCH_EVENTS, ServerCalls.asyncServerStreamingCall(service::watchEvents))
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

    public Node getNode(GetNodeRequest request) {
      return ClientCalls.blockingUnaryCall(getChannel(), GET_NODE, getCallOptions(), request);
    }

    public Iterator<NodeEvent> watchEvents(WatchEventsRequest request) {
      return ClientCalls.blockingServerStreamingCall(
          getChannel(), WATCH_EVENTS, getCallOptions(), request);
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

    public void getNode(GetNodeRequest request, StreamObserver<Node> responses) {
      ClientCalls.asyncUnaryCall(
          getChannel().newCall(GET_NODE, getCallOptions()), request, responses);
    }

    public void watchEvents(WatchEventsRequest request, StreamObserver<NodeEvent> responses) {
      ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(WATCH_EVENTS, getCallOptions()), request, responses);
    }
  }
}
