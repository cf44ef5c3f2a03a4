package io.gantry.deviceagent.nodeagent;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.gantry.proto.nodeagent.v1.NodeAgentGrpc;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EventKind;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.GetNodeRequest;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Node;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NodeEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.WatchEventsRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Gantry's node-agent v1 API: {@code GetNode} answers the node's inventory as the agent reports it
 * now; {@code WatchEvents} streams later health and enforcement events through the {@link
 * NodeEventHub}. Both calls are quick and never block, so the service may run on the transport's
 * threads.
 */
public final class NodeAgentService extends NodeAgentGrpc.NodeAgentImplBase {
  private final String nodeName;
  private final Supplier<Optional<InventorySnapshot>> inventory;
  private final NodeEventHub events;

  /**
   * @param inventory the inventory now; empty before the first discovery
   */
  public NodeAgentService(
      String nodeName, Supplier<Optional<InventorySnapshot>> inventory, NodeEventHub events) {
    this.nodeName = requireNonNull(nodeName, "nodeName is null");
    this.inventory = requireNonNull(inventory, "inventory is null");
    this.events = requireNonNull(events, "events is null");
  }

  @Override
  public void getNode(GetNodeRequest request, StreamObserver<Node> response) {
    Optional<InventorySnapshot> now = inventory.get();
    if (now.isEmpty()) {
      response.onError(
          Status.UNAVAILABLE
              .withDescription("no GPU inventory taken yet on node " + nodeName)
              .asRuntimeException());
      return;
    }
    response.onNext(NodeMessages.node(nodeName, now.get().inventory(), now.get().discoveredAt()));
    response.onCompleted();
  }

  @Override
  public void watchEvents(WatchEventsRequest request, StreamObserver<NodeEvent> response) {
    ImmutableSet.Builder<NodeEvent.EventCase> kinds = ImmutableSet.builder();
    for (int i = 0; i < request.getKindsCount(); i++) {
      EventKind kind = request.getKinds(i);
      switch (kind) {
        case EVENT_KIND_HEALTH -> kinds.add(NodeEvent.EventCase.HEALTH);
        case EVENT_KIND_ENFORCEMENT -> kinds.add(NodeEvent.EventCase.ENFORCEMENT);
        case EVENT_KIND_UNSPECIFIED, UNRECOGNIZED -> {
          response.onError(
              Status.INVALID_ARGUMENT
                  .withDescription(
                      "kinds["
                          + i
                          + "] is "
                          + (kind == EventKind.UNRECOGNIZED
                              ? "unknown value " + request.getKindsValue(i)
                              : kind.name())
                          + "; expected EVENT_KIND_HEALTH or EVENT_KIND_ENFORCEMENT, or no kinds"
                          + " for every event")
                  .asRuntimeException());
          return;
        }
      }
    }
    events.subscribe((ServerCallStreamObserver<NodeEvent>) response, kinds.build());
  }
}
