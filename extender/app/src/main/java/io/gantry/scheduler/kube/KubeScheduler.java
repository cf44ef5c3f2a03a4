package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.explain.ExplainService;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.scenario.ScenarioWriter;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.grouping.OwnerResolver;
import io.gantry.scheduler.kube.grouping.PodGrouper;
import io.gantry.scheduler.kube.grouping.WorkloadDefaultsConfigMap;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.informers.OwnerCache;
import io.gantry.scheduler.kube.kaisnapshot.KaiSnapshotWriter;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.lease.LeaseElector;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.reserve.GpuReserver;
import io.gantry.scheduler.kube.reserve.GpuSharingUpkeep;
import io.gantry.scheduler.kube.reserve.ReservationCleanup;
import io.gantry.scheduler.kube.reserve.ScalingPods;
import io.gantry.scheduler.kube.reserve.SharedGpuBind;
import io.gantry.scheduler.kube.snapshot.GpuInventoryReader;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFactsMemo;
import io.gantry.scheduler.kube.snapshot.SnapshotBuilder;
import io.gantry.scheduler.kube.snapshot.SnapshotScope;
import io.gantry.scheduler.kube.usage.PrometheusClient;
import io.gantry.scheduler.kube.usage.PrometheusUsage;
import io.gantry.scheduler.kube.usage.UsageCache;
import io.gantry.scheduler.kube.usage.UsageDb;
import io.gantry.scheduler.kube.write.Backoff;
import io.gantry.scheduler.kube.write.Binder;
import io.gantry.scheduler.kube.write.ClaimReleaser;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.Evictor;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.kube.write.StatusWriter;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secondary scheduler's running parts: informers, leader election, the loop and its writers,
 * built from one {@link SchedulerSettings} over a connected client ({@link LiveSchedulerWiring}
 * connects it and adds the ops endpoints). {@link #start} validates the engine configuration first
 * ({@code ConfigException} naming the key) and returns once everything runs; the caches sync in the
 * background ({@link #ready()}).
 */
public final class KubeScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeScheduler.class);

  /** How long a stop waits for the writes under way. */
  static final Duration WRITES_GRACE = Duration.ofSeconds(10);

  private final SchedulerSettings settings;
  private final ClusterInformers informers;
  private final OwnerCache owners;
  private final Leadership leadership;
  private final Optional<LeaseElector> elector;
  private final ScheduledExecutorService writers;
  private final EventRecorder events;
  private final StatusWriter status;
  private final SchedulerMetrics metrics;
  private final SnapshotBuilder snapshots;
  private final Binder binder;
  private final SchedulerLoop loop;
  private final Optional<UsageCache> usage;
  private final Optional<ScheduledExecutorService> usageFetcher;
  private final ExplainService explanations;

  private KubeScheduler(
      ApiClient client, SchedulerSettings settings, Clock clock, String metricsNamespace) {
    this.settings = settings;
    SchedulerWiring wiring = new SchedulerWiring(new CelDeviceSelectors());
    SchedulingCycle cycle = wiring.cycle(settings.engine());
    this.metrics =
        new SchedulerMetrics(
            metricsNamespace, settings.nodePool().labelValue().orElse(NodePool.DEFAULT_NAME));
    metrics.configured(settings.engine());
    this.informers = new ClusterInformers(client);
    if (settings.leaderElection().enabled()) {
      LeaseElector e =
          new LeaseElector(new CoordinationV1Api(client), settings.leaderElection(), clock);
      this.elector = Optional.of(e);
      this.leadership = e;
    } else {
      this.elector = Optional.empty();
      this.leadership = Leadership.ALWAYS;
    }
    KubeWriter writer = new KubeWriter(client);
    ScheduledThreadPoolExecutor pool =
        new ScheduledThreadPoolExecutor(
            settings.bindConcurrency(),
            r -> {
              Thread t = new Thread(r, "gantry-writer");
              t.setDaemon(true);
              return t;
            });
    pool.setRemoveOnCancelPolicy(true);
    // at a stop, a write waiting for its retry is dropped (handed back: the pod stays pending for
    // the next leader), while the writes under way finish (close())
    pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.writers = pool;
    this.events =
        new EventRecorder(writer, settings.schedulerName(), clock, settings.eventsPerSecond());
    this.status =
        new StatusWriter(
            informers,
            writer,
            events,
            leadership,
            settings.nodePool(),
            clock,
            settings.statusWritesPerSecond());
    GpuSharingSpec sharing = settings.gpuSharing();
    Optional<SharedGpuBind> sharedGpus =
        sharing.reservationPods()
            ? Optional.of(
                new SharedGpuBind(writer, new GpuReserver(writer, sharing, clock), informers::node))
            : Optional.empty();
    this.binder =
        new Binder(
            writer,
            informers,
            leadership,
            events,
            metrics,
            writers,
            clock,
            Backoff.DEFAULT,
            sharedGpus);
    Evictor evictor = new Evictor(writer, leadership, writers, clock, Backoff.DEFAULT);
    this.owners = informers.owners(clock);
    // read by the grouper and the snapshot builder, so a cycle converts each pod version once
    PodFactsMemo podFacts = new PodFactsMemo();
    PodGrouper grouper =
        new PodGrouper(
            informers,
            new OwnerResolver(owners, () -> podFacts.of(informers.pods())),
            writer,
            events,
            writers,
            settings.schedulerName(),
            new QueueAssignment(settings.queueLabelKey(), settings.nodePool().labelKey()),
            new WorkloadDefaultsConfigMap(owners, settings.workloadDefaults()),
            podFacts);
    if (settings.usageDb().isPresent()) {
      UsageDb db = settings.usageDb().get();
      HttpClient http = HttpClient.newBuilder().connectTimeout(db.spec().queryTimeout()).build();
      PrometheusUsage prometheus =
          new PrometheusUsage(
              new PrometheusClient(db.address(), http, db.spec().queryTimeout()), db.spec());
      this.usage =
          Optional.of(
              new UsageCache(
                  now -> {
                    long started = System.nanoTime();
                    try {
                      return prometheus.fetch(now);
                    } finally {
                      metrics.usageQuery((System.nanoTime() - started) / 1e6);
                    }
                  },
                  clock,
                  db.spec().stalenessPeriod()));
      this.usageFetcher =
          Optional.of(
              Executors.newSingleThreadScheduledExecutor(
                  r -> {
                    Thread t = new Thread(r, "gantry-usage");
                    t.setDaemon(true);
                    return t;
                  }));
    } else {
      this.usage = Optional.empty();
      this.usageFetcher = Optional.empty();
    }
    this.snapshots =
        new SnapshotBuilder(
            informers,
            new SnapshotScope(
                settings.schedulerName(), settings.nodePool(), settings.gpuSharing().mode()),
            clock,
            binder,
            grouper,
            usage.isPresent() ? usage.get() : UsageSource.NONE,
            new GpuInventoryReader(events, Optional.of(metrics.registry())),
            podFacts);
    this.explanations =
        ExplainService.live(
            wiring.explainer(settings.engine()),
            () -> {
              LiveSnapshot live = snapshots.build();
              return new ExplainService.Reading(live.snapshot(), live.leftOutPods());
            });
    this.loop =
        new SchedulerLoop(
            informers,
            snapshots,
            grouper,
            cycle,
            binder,
            new ClaimReleaser(informers, writer, binder::writesClaim),
            evictor,
            events,
            status,
            metrics,
            leadership,
            settings.schedulePeriod(),
            sharing.reservationPods()
                ? Optional.of(
                    new GpuSharingUpkeep(
                        informers::pods,
                        new ReservationCleanup(
                            writer, events, sharing.reservationNamespace(), binder::groupsInFlight),
                        sharing.scalingPods()
                            ? Optional.of(new ScalingPods(writer, sharing))
                            : Optional.empty(),
                        key -> binder.inFlight(key).isPresent()))
                : Optional.empty());
  }

  /** Builds and starts a scheduler; throws {@code ConfigException} for a bad engine config. */
  public static KubeScheduler start(ApiClient client, SchedulerSettings settings, Clock clock) {
    return start(client, settings, clock, SchedulerMetrics.DEFAULT_NAMESPACE);
  }

  /**
   * {@link #start(ApiClient, SchedulerSettings, Clock)} naming its metrics under {@code
   * metricsNamespace} ({@code kai} for KAI's names).
   */
  public static KubeScheduler start(
      ApiClient client, SchedulerSettings settings, Clock clock, String metricsNamespace) {
    requireNonNull(client, "client is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    KubeScheduler s = new KubeScheduler(client, settings, clock, metricsNamespace);
    s.informers.start();
    s.elector.ifPresent(LeaseElector::start);
    s.startUsage();
    s.loop.start();
    return s;
  }

  /**
   * Fetches usage every {@code fetchInterval} from now on, and waits for the first answer at most
   * {@code waitTimeout} (KAI's), so the first cycles already see it.
   */
  private void startUsage() {
    if (usage.isEmpty() || usageFetcher.isEmpty() || settings.usageDb().isEmpty()) {
      return;
    }
    UsageCache cache = usage.get();
    Duration every = settings.usageDb().get().spec().fetchInterval();
    // refresh() catches every failure itself, so the future never completes exceptionally.
    var unused =
        usageFetcher
            .get()
            .scheduleWithFixedDelay(cache::refresh, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    try {
      if (!cache.awaitFirst(settings.usageDb().get().spec().waitTimeout())) {
        LOG.warn(
            "No queue usage from {} yet; scheduling starts without it",
            settings.usageDb().get().address());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** When the queue usage in use was fetched; empty without a usage database or a first answer. */
  public Optional<Instant> usageFetchedAt() {
    return usage.flatMap(UsageCache::fetchedAt);
  }

  public SchedulerSettings settings() {
    return settings;
  }

  public boolean isLeader() {
    return leadership.isLeader();
  }

  /** The caches have synced: cycles can run. */
  public boolean ready() {
    return informers.hasSynced();
  }

  /** The loop is alive. */
  public boolean healthy() {
    return loop.healthy();
  }

  /** Cycles this replica ran as leader. */
  public long cycles() {
    return loop.cycles();
  }

  /** Binds decided and not yet seen bound in the cache. */
  public int bindsInFlight() {
    return binder.inFlightCount();
  }

  public SchedulerMetrics metrics() {
    return metrics;
  }

  LiveSnapshot snapshotNow() {
    return snapshots.build();
  }

  /**
   * The live state as a scenario file that {@code gantry simulate} replays: a snapshot built from
   * the caches now (with binds in flight as bound), and this scheduler's engine configuration.
   */
  public String snapshotScenario() {
    LiveSnapshot live = snapshots.build();
    return ScenarioWriter.write(
        "snapshot",
        "Live state of scheduler "
            + settings.schedulerName()
            + " (node pool "
            + settings.nodePool().name()
            + ") at "
            + live.snapshot().now(),
        live.snapshot(),
        settings.engine());
  }

  /**
   * The cached objects as a KAI snapshot ({@code /get-snapshot}): the ZIP of {@link
   * KaiSnapshotWriter}, with this scheduler's configuration in KAI's words.
   */
  public byte[] kaiSnapshot() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      KaiSnapshotWriter.write(informers, settings, out);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory", e);
    }
    return out.toByteArray();
  }

  /**
   * Explanations ({@code /explain}, {@code /queues}, {@code /get-job-order}) of a snapshot built
   * from the caches at each request, with binds in flight as bound: what the next cycle would see.
   */
  public ExplainService explanations() {
    return explanations;
  }

  /**
   * Stops everything: no new cycle, the binds and evictions under way finish (for at most {@link
   * #WRITES_GRACE}), then a leader releases its lease so a standby takes over at once.
   */
  @Override
  public void close() {
    loop.close();
    writers.shutdown();
    try {
      if (!writers.awaitTermination(WRITES_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("writes still under way after {}s; stopping them", WRITES_GRACE.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    elector.ifPresent(LeaseElector::close);
    stopWriters();
    metrics.close();
  }

  /**
   * Stops at once, as a crashed process would: the lease is kept until it expires and writes under
   * way are cut off. For tests of a takeover.
   */
  public void halt() {
    elector.ifPresent(LeaseElector::abandon);
    loop.close();
    stopWriters();
    metrics.close();
  }

  private void stopWriters() {
    usageFetcher.ifPresent(ExecutorService::shutdownNow);
    writers.shutdownNow();
    try {
      writers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    status.close();
    events.close();
    owners.close();
    informers.close();
  }
}
