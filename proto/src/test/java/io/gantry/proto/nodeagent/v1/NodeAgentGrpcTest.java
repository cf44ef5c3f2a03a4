package io.gantry.proto.nodeagent.v1;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.proto.nodeagent.v1.NodeAgentProto.DomainSource;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementAction;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EventKind;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.GetNodeRequest;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Gpu;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.GpuHealth;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.GpuLink;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.HealthEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.HealthStatus;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.LinkType;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.MigInstance;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.MigMode;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Node;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NodeEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NvlinkDomain;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.SharingMechanism;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.WatchEventsRequest;
import io.gantry.proto.testing.InProcessGrpc;
import io.gantry.proto.testing.ProtoContract;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeAgentGrpcTest {
  private static final Node NODE =
      Node.newBuilder()
          .setNodeName("gpu-node-1")
          .setDriverVersion("580.105.08")
          .setCudaVersion("13.0")
          .addGpus(
              Gpu.newBuilder()
                  .setIndex(0)
                  .setUuid("GPU-00000000-0000-0000-0000-000000000000")
                  .setPciBusId("00000000:53:00.0")
                  .setProductName("NVIDIA H100 80GB HBM3")
                  .setMemoryMib(81559)
                  .setMigMode(MigMode.MIG_MODE_ENABLED)
                  .addMigInstances(
                      MigInstance.newBuilder()
                          .setIndex(0)
                          .setGpuInstanceId(2)
                          .setProfile("3g.40gb")
                          .setMemoryMib(40192))
                  .setNumaNode(0)
                  .setHealth(GpuHealth.newBuilder().setStatus(HealthStatus.HEALTH_STATUS_HEALTHY)))
          .addGpus(
              Gpu.newBuilder()
                  .setIndex(1)
                  .setUuid("GPU-00000001-0000-0000-0000-000000000001")
                  .setHealth(
                      GpuHealth.newBuilder()
                          .setStatus(HealthStatus.HEALTH_STATUS_UNHEALTHY)
                          .addReasons("gpu_recovery_action is Node Reboot")))
          .addNvlinkDomains(
              NvlinkDomain.newBuilder()
                  .setId("local-0")
                  .addGpuIndices(0)
                  .addGpuIndices(1)
                  .setAllToAll(true)
                  .addSources(DomainSource.DOMAIN_SOURCE_FABRIC))
          .setLinkMatrixAvailable(true)
          .addGpuLinks(
              GpuLink.newBuilder()
                  .setGpuIndexA(0)
                  .setGpuIndexB(1)
                  .setType(LinkType.LINK_TYPE_NVLINK)
                  .setNvlinkCount(18))
          .build();

  @Test
  void serviceHasItsVersionedWireName() {
    assertThat(NodeAgentProto.getDescriptor().getPackage()).isEqualTo("gantry.nodeagent.v1");
    assertThat(NodeAgentGrpc.SERVICE_NAME).isEqualTo("gantry.nodeagent.v1.NodeAgent");
    assertThat(ProtoContract.methods(NodeAgentProto.getDescriptor().findServiceByName("NodeAgent")))
        .containsExactly(
            "/gantry.nodeagent.v1.NodeAgent/GetNode GetNodeRequest -> Node",
            "/gantry.nodeagent.v1.NodeAgent/WatchEvents WatchEventsRequest -> stream NodeEvent");
  }

  @Test
  void nodeRoundTripsThroughBytesKeepingAnUnsetNumaNodeUnset() throws Exception {
    Node parsed = Node.parseFrom(NODE.toByteArray());

    assertThat(parsed).isEqualTo(NODE);
    assertThat(parsed.getGpus(0).hasNumaNode()).isTrue();
    assertThat(parsed.getGpus(0).getNumaNode()).isZero();
    assertThat(parsed.getGpus(1).hasNumaNode()).isFalse();
  }

  @Test
  void getNodeAndWatchEventsWorkOverGrpc() throws Exception {
    NodeEvent killed =
        NodeEvent.newBuilder()
            .setSequence(1)
            .setAtUnixMillis(1_000)
            .setEnforcement(
                EnforcementEvent.newBuilder()
                    .setPodNamespace("team-a")
                    .setPodName("train-0")
                    .setGpuUuid("GPU-00000000-0000-0000-0000-000000000000")
                    .setMechanism(SharingMechanism.SHARING_MECHANISM_HAMI_CORE)
                    .setAction(EnforcementAction.ENFORCEMENT_ACTION_CONTAINER_KILLED)
                    .setMemoryLimitMib(20_480)
                    .setMemoryUsedMib(20_481))
            .build();
    NodeEvent unhealthy =
        NodeEvent.newBuilder()
            .setSequence(2)
            .setAtUnixMillis(2_000)
            .setHealth(
                HealthEvent.newBuilder()
                    .setGpuIndex(1)
                    .setGpuUuid("GPU-00000001-0000-0000-0000-000000000001")
                    .setPreviousStatus(HealthStatus.HEALTH_STATUS_HEALTHY)
                    .setHealth(NODE.getGpus(1).getHealth()))
            .build();
    List<WatchEventsRequest> watches = new ArrayList<>();
    NodeAgentGrpc.AsyncService agent =
        new NodeAgentGrpc.AsyncService() {
          @Override
          public void getNode(GetNodeRequest request, StreamObserver<Node> out) {
            out.onNext(NODE);
            out.onCompleted();
          }

          @Override
          public void watchEvents(WatchEventsRequest request, StreamObserver<NodeEvent> out) {
            watches.add(request);
            out.onNext(killed);
            out.onNext(unhealthy);
            out.onCompleted();
          }
        };

    List<NodeEvent> events = new ArrayList<>();
    try (InProcessGrpc grpc = InProcessGrpc.serve(NodeAgentGrpc.bindService(agent))) {
      NodeAgentGrpc.NodeAgentBlockingStub client = NodeAgentGrpc.newBlockingStub(grpc.channel());
      assertThat(client.getNode(GetNodeRequest.getDefaultInstance())).isEqualTo(NODE);
      Iterator<NodeEvent> stream =
          client.watchEvents(
              WatchEventsRequest.newBuilder().addKinds(EventKind.EVENT_KIND_HEALTH).build());
      stream.forEachRemaining(events::add);
    }

    assertThat(watches)
        .extracting(WatchEventsRequest::getKindsList)
        .containsExactly(List.of(EventKind.EVENT_KIND_HEALTH));
    assertThat(events).containsExactly(killed, unhealthy);
    assertThat(events.get(0).getEventCase()).isEqualTo(NodeEvent.EventCase.ENFORCEMENT);
    assertThat(events.get(1).getEventCase()).isEqualTo(NodeEvent.EventCase.HEALTH);
  }
}
