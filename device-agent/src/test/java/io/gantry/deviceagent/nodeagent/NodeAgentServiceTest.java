package io.gantry.deviceagent.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gantry.deviceagent.agent.NodeAgent;
import io.gantry.deviceagent.deviceplugin.DevicePluginManager;
import io.gantry.deviceagent.enforcement.GpuUsageReader;
import io.gantry.deviceagent.enforcement.OverGrantWatch;
import io.gantry.deviceagent.enforcement.PodCgroups;
import io.gantry.deviceagent.kube.NodeEvents;
import io.gantry.deviceagent.kube.NodeInventoryPublisher;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodEnforcer;
import io.gantry.deviceagent.metrics.DeviceAgentMetrics;
import io.gantry.deviceagent.testing.SharedGpuPods;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvml.XidEventWatch;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvml;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.proto.nodeagent.v1.NodeAgentGrpc;
import io.gantry.proto.nodeagent.v1.NodeAgentProto;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EventKind;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.GetNodeRequest;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.HealthEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.HealthStatus;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Node;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NodeEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.WatchEventsRequest;
import io.gantry.proto.uds.UnixSocketChannels;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node-agent API over a real Unix socket, fed by the agent's own parts: discovery through a
 * fake nvidia-smi replaying the HGX H100, XIDs through a fake NVML, the usage watch over pods on
 * the fake API server.
 */
class NodeAgentServiceTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Instant NOW = Instant.parse("2026-12-01T15:00:00Z");
  private static final String GPU3 = "GPU-00000003-0000-0000-0000-000000000003";
  private static final int BUFFER_EVENTS = 64;

  @TempDir Path tmp;

  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private final List<ManagedChannel> channels = new ArrayList<>();
  private FakeKubeServer kube;
  private NodeEventHub hub;
  private final DeviceAgentMetrics metrics =
      new DeviceAgentMetrics(new SimpleMeterRegistry(), "gpu-0");
  private DevicePluginManager plugins;
  private NodeAgent agent;
  private NodeAgentServer server;
  private Path proc;

  @BeforeEach
  void start() throws Exception {
    kube = FakeKubeServer.start();
    ApiClient client = ApiClients.forUrl(kube.url());
    Path smiPath =
        FakeNvidiaSmi.replaying(Files.createDirectories(tmp.resolve("bin")), Fixtures.HGX_H100)
            .answer(SharedGpuPods.COMPUTE_APPS_QUERY, Fixtures.read(Fixtures.COMPUTE_APPS_H100))
            .install();
    NvidiaSmi smi = NvidiaSmi.locate(smiPath.toString(), "", Duration.ofSeconds(10));
    proc = Files.createDirectories(tmp.resolve("host"));
    hub = new NodeEventHub(clock, BUFFER_EVENTS);
    NodePods pods = new NodePods(client, "gpu-0");
    plugins =
        new DevicePluginManager(
            Files.createDirectories(tmp.resolve("device-plugins")),
            4,
            pods,
            DeviceNaming.UUID,
            Optional.empty(),
            hub,
            metrics);
    agent =
        new NodeAgent(
            new GpuDiscovery(smi),
            plugins,
            new NodeInventoryPublisher(client, "gpu-0"),
            new OverGrantWatch(
                new GpuUsageReader(smi, new PodCgroups(proc.resolve("proc"))),
                pods,
                new PodEnforcer(client, "gpu-0", clock),
                false,
                hub,
                metrics.overGrant()),
            new NodeEvents(client, "gpu-0", clock),
            Optional.empty(),
            clock);
    agent.runOnce();
    server =
        NodeAgentServer.start(
            new NodeAgentService("gpu-0", agent::snapshot, hub),
            hub,
            tmp.resolve("gantry").resolve("node-agent.sock"),
            OptionalInt.empty());
  }

  @AfterEach
  void stop() {
    channels.forEach(ManagedChannel::shutdownNow);
    server.close();
    plugins.close();
    kube.close();
  }

  private NodeAgentGrpc.NodeAgentBlockingStub blocking() {
    ManagedChannel channel = UnixSocketChannels.dial(server.socket());
    channels.add(channel);
    return NodeAgentGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** A watch whose first events the test reads; returns once the hub has it. */
  private Iterator<NodeEvent> watch(EventKind... kinds) {
    int before = hub.subscriberCount();
    Iterator<NodeEvent> events =
        blocking().watchEvents(WatchEventsRequest.newBuilder().addAllKinds(List.of(kinds)).build());
    await().atMost(WAIT).until(() -> hub.subscriberCount() == before + 1);
    return events;
  }

  @Test
  void getNodeAnswersTheEightH100sInOneNvlinkDomain() {
    Node node = blocking().getNode(GetNodeRequest.getDefaultInstance());

    assertThat(node.getNodeName()).isEqualTo("gpu-0");
    assertThat(node.getGpusCount()).isEqualTo(8);
    assertThat(node.getNvlinkDomainsList())
        .singleElement()
        .satisfies(d -> assertThat(d.getGpuIndicesList()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7));
    assertThat(node.getDiscoveredAtUnixMillis()).isEqualTo(NOW.toEpochMilli());
    assertThat(node.getGpusList())
        .allSatisfy(
            g ->
                assertThat(g.getHealth().getStatus())
                    .isEqualTo(HealthStatus.HEALTH_STATUS_HEALTHY));
  }

  @Test
  void aCriticalXidReachesAWatcherAndGetNode() throws Exception {
    FakeNvml nvml = FakeNvml.replaying(Fixtures.HGX_H100);
    Iterator<NodeEvent> events = watch();

    XidEventWatch xids = XidEventWatch.start(nvml, metrics.gpus()::xid, agent::xidError);
    try {
      nvml.raiseXid(3, 79);

      NodeEvent event = events.next();
      NodeAgentProto.GpuHealth xid =
          NodeAgentProto.GpuHealth.newBuilder()
              .setStatus(HealthStatus.HEALTH_STATUS_UNHEALTHY)
              .addReasons("XID 79 reported by the driver")
              .build();
      assertThat(event)
          .isEqualTo(
              NodeEvent.newBuilder()
                  .setSequence(1)
                  .setAtUnixMillis(NOW.toEpochMilli())
                  .setHealth(
                      HealthEvent.newBuilder()
                          .setGpuIndex(3)
                          .setGpuUuid(GPU3)
                          .setPreviousStatus(HealthStatus.HEALTH_STATUS_HEALTHY)
                          .setHealth(xid))
                  .build());
      assertThat(blocking().getNode(GetNodeRequest.getDefaultInstance()).getGpus(3).getHealth())
          .isEqualTo(xid);
    } finally {
      xids.close();
    }
  }

  @Test
  void aPodOverItsGrantReachesAnEnforcementWatcherButNotAHealthWatcher() throws Exception {
    Iterator<NodeEvent> enforcement = watch(EventKind.EVENT_KIND_ENFORCEMENT);
    Iterator<NodeEvent> health = watch(EventKind.EVENT_KIND_HEALTH);
    String a = SharedGpuPods.sharingPod(kube, "a", 5);
    String b = SharedGpuPods.sharingPod(kube, "b", 5);
    SharedGpuPods.proc(proc, a, b);

    agent.runOnce();

    assertThat(enforcement.next())
        .isEqualTo(
            NodeEvent.newBuilder()
                .setSequence(1)
                .setAtUnixMillis(NOW.toEpochMilli())
                .setEnforcement(SharedGpuPods.podBOverItsGrant(b))
                .build());
    // the next event is a health change: the health watcher's first event is that one
    plugins.discoveryFailed("nvidia-smi -q -x timed out");
    NodeEvent first = health.next();
    assertThat(first.getSequence()).isEqualTo(2);
    assertThat(first.getHealth().getGpuIndex()).isZero();
    assertThat(first.getHealth().getHealth().getReasonsList())
        .containsExactly("nvidia-smi -q -x timed out");
  }

  @Test
  void aSlowWatcherIsDisconnectedWithoutStallingTheTrackerOrTheOtherWatchers() throws Exception {
    // A watcher that never reads: once its transport window and its buffer are full, it is cut.
    // Its own connection with a fixed window (no auto-tuning), so the window fills at 64 KiB.
    ManagedChannel slowChannel =
        ((NettyChannelBuilder)
                Grpc.newChannelBuilder(
                    "unix://" + server.socket().toAbsolutePath(),
                    InsecureChannelCredentials.create()))
            .flowControlWindow(64 * 1024)
            .build();
    channels.add(slowChannel);
    Recorder<WatchEventsRequest, NodeEvent> slow = new Recorder<>(true);
    NodeAgentGrpc.newStub(slowChannel).watchEvents(WatchEventsRequest.getDefaultInstance(), slow);
    await().atMost(WAIT).until(() -> hub.subscriberCount() == 1);
    Iterator<NodeEvent> fast = watch();
    List<NodeEvent> fastSeen = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> reader =
        CompletableFuture.runAsync(
            () -> {
              while (fast.hasNext()) {
                fastSeen.add(fast.next());
              }
            });
    // health changes with a 4 KiB reason, GPU 0 going unhealthy and back
    GpuInventory healthy = agent.snapshot().orElseThrow().inventory();
    List<GpuDevice> devices = new ArrayList<>(healthy.devices());
    devices.set(0, devices.get(0).withHealth(GpuHealth.fromReasons(List.of("x".repeat(4096)))));
    GpuInventory unhealthy =
        new GpuInventory(
            healthy.driverVersion(),
            healthy.cudaVersion(),
            devices,
            healthy.linkMatrixAvailable(),
            healthy.gpuLinks(),
            healthy.nvlinkDomains());

    int sent = 0;
    for (int batch = 0; batch < 20; batch++) {
      for (int i = 0; i < 50; i++) {
        plugins.update(sent % 2 == 0 ? unhealthy : healthy);
        sent++;
      }
      // the fast watcher keeps up between batches; the slow one never reads
      int expected = sent;
      await().atMost(WAIT).until(() -> fastSeen.size() == expected);
    }

    // the agent let go of the slow watcher; once it reads what it was sent, it sees why
    assertThat(hub.subscriberCount()).isEqualTo(1);
    slow.call.get().request(Integer.MAX_VALUE);
    await().atMost(WAIT).until(() -> slow.error.get() != null);
    assertThat(Status.fromThrowable(slow.error.get()).getCode())
        .isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(Status.fromThrowable(slow.error.get()).getDescription())
        .isEqualTo(
            "the client fell 64 events behind and was disconnected; call GetNode for the current"
                + " state and watch again");
    assertThat(fastSeen).extracting(NodeEvent::getSequence).doesNotHaveDuplicates().hasSize(1000);
    assertThat(fastSeen.get(999).getSequence()).isEqualTo(1000);
    server.close();
    reader.get(30, TimeUnit.SECONDS);
  }

  @Test
  void aWatcherThatCancelsIsForgotten() {
    ManagedChannel channel = UnixSocketChannels.dial(server.socket());
    channels.add(channel);
    Recorder<WatchEventsRequest, NodeEvent> watcher = new Recorder<>(false);
    NodeAgentGrpc.newStub(channel).watchEvents(WatchEventsRequest.getDefaultInstance(), watcher);
    await().atMost(WAIT).until(() -> hub.subscriberCount() == 1);

    watcher.call.get().cancel("done watching", null);

    await().atMost(WAIT).until(() -> hub.subscriberCount() == 0);
  }

  @Test
  void anUnspecifiedKindIsRefusedNamingTheField() {
    Iterator<NodeEvent> events =
        blocking()
            .watchEvents(
                WatchEventsRequest.newBuilder()
                    .addKinds(EventKind.EVENT_KIND_HEALTH)
                    .addKinds(EventKind.EVENT_KIND_UNSPECIFIED)
                    .build());

    assertThatThrownBy(events::hasNext)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo(
                      "kinds[1] is EVENT_KIND_UNSPECIFIED; expected EVENT_KIND_HEALTH or"
                          + " EVENT_KIND_ENFORCEMENT, or no kinds for every event");
            });
    assertThat(hub.subscriberCount()).isZero();
  }

  @Test
  void stoppingEndsEveryWatchNormallyAndRemovesTheSocket() {
    Iterator<NodeEvent> events = watch();

    server.close();

    assertThat(events.hasNext()).isFalse();
    assertThat(server.socket()).doesNotExist();
  }

  @Test
  void beforeTheFirstDiscoveryGetNodeIsUnavailable() {
    NodeAgentService service =
        new NodeAgentService("gpu-0", Optional::empty, new NodeEventHub(clock, 1));
    Recorder<GetNodeRequest, Node> answer = new Recorder<>(false);
    service.getNode(GetNodeRequest.getDefaultInstance(), answer);

    Status status = Status.fromThrowable(answer.error.get());
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("no GPU inventory taken yet on node gpu-0");
  }

  /**
   * A client call's observer that keeps the call and how it failed; {@code manualFlow} asks for no
   * message until the test requests some.
   */
  private static final class Recorder<Q, T> implements ClientResponseObserver<Q, T> {
    final AtomicReference<ClientCallStreamObserver<Q>> call = new AtomicReference<>();
    final AtomicReference<Throwable> error = new AtomicReference<>();
    private final boolean manualFlow;

    Recorder(boolean manualFlow) {
      this.manualFlow = manualFlow;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<Q> started) {
      if (manualFlow) {
        started.disableAutoRequestWithInitial(0);
      }
      call.set(started);
    }

    @Override
    public void onNext(T value) {}

    @Override
    public void onError(Throwable t) {
      error.set(t);
    }

    @Override
    public void onCompleted() {}
  }
}
