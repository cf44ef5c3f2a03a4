package io.gantry.scheduler.kube.snapshot;

import static io.gantry.scheduler.kube.TestObjects.SCHEDULER;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.FakeKubeServer;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.KubeWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A fake API server and the scheduler's caches over it, for tests of the snapshots built from them;
 * {@link #close} stops both.
 */
final class SnapshotFixture implements AutoCloseable {
  private static final Duration SYNC = Duration.ofSeconds(15);

  final FakeKubeServer kube = FakeKubeServer.start();
  final ClusterInformers informers = new ClusterInformers(KubeClients.forUrl(kube.url()));
  private final EventRecorder events =
      new EventRecorder(
          new KubeWriter(KubeClients.forUrl(kube.url())), SCHEDULER, Clock.systemUTC(), 100);

  /**
   * Starts the caches, waits until every one (the DRA ones too) has listed, and returns a builder
   * of the test scheduler's snapshots over them.
   */
  SnapshotBuilder builder(NodePool pool, Clock clock, InFlightBinds inFlight, UsageSource usage) {
    informers.start();
    await().atMost(SYNC).until(() -> informers.hasSynced() && informers.dra().hasSynced());
    return new SnapshotBuilder(
        informers,
        new SnapshotScope(SCHEDULER, pool, GpuSharingMode.DEVICE_PLUGIN),
        clock,
        inFlight,
        PodGroupAssignments.NONE,
        usage,
        new GpuInventoryReader(events, Optional.empty()),
        new PodFactsMemo());
  }

  @Override
  public void close() {
    events.close();
    informers.close();
    kube.close();
  }
}
