package io.gantry.scheduler.kube.config;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.kube.LiveSchedulerWiring;
import io.gantry.scheduler.kube.lease.LeaderElection;
import io.gantry.scheduler.kube.usage.UsageDb;
import java.time.Duration;
import java.util.Optional;

/**
 * Everything the secondary scheduler runs with: the engine's configuration ({@code engine}:
 * actions, plugins, placement), the pods it takes ({@code schedulerName}), its period, its node
 * pool, KAI's queue label key, leader election, the limits on its writes, the cluster it connects
 * to and the port of its ops endpoints: all {@link LiveSchedulerWiring} needs besides a clock.
 *
 * @param bindConcurrency binds (and evictions) under way at once
 * @param statusWritesPerSecond pod, PodGroup and Queue status writes a second
 * @param eventsPerSecond Events written a second
 * @param usageDb where time-based fair share reads queue usage (KAI's {@code usageDBConfig}); off
 *     when empty
 * @param workloadDefaults KAI's ConfigMap of default priority classes and preemptibility per
 *     workload type, as {@code namespace/name}; none when empty
 * @param cluster the kubeconfig and context to connect with ({@code --kubeconfig}, {@code
 *     --context}); kubectl's defaults when empty
 * @param startupTimeout how long the start waits for the API server to answer ({@code
 *     --startup-timeout}) before giving up
 * @param opsPort the port of {@code /metrics}, {@code /healthz}, {@code /readyz} and {@code
 *     /snapshot} ({@code gantry scheduler} only; the extender serves its own), 0 for any free one
 * @param gpuSharing how the binder gives fraction pods their GPU: reservation pods or Gantry's
 *     device plugin ({@code gpuSharing} in the file)
 */
public record SchedulerSettings(
    String schedulerName,
    Duration schedulePeriod,
    NodePool nodePool,
    String queueLabelKey,
    SchedulerConfig engine,
    LeaderElection leaderElection,
    int bindConcurrency,
    double statusWritesPerSecond,
    double eventsPerSecond,
    Optional<UsageDb> usageDb,
    Optional<String> workloadDefaults,
    ClusterAccess cluster,
    Duration startupTimeout,
    int opsPort,
    GpuSharingSpec gpuSharing) {
  public static final String DEFAULT_SCHEDULER_NAME = "gantry-scheduler";
  public static final Duration DEFAULT_SCHEDULE_PERIOD = Duration.ofSeconds(1);
  public static final int DEFAULT_BIND_CONCURRENCY = 16;
  public static final double DEFAULT_STATUS_WRITES_PER_SECOND = 100;
  public static final double DEFAULT_EVENTS_PER_SECOND = 50;
  public static final int DEFAULT_OPS_PORT = 8080;
  public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);

  public SchedulerSettings {
    requireNonNull(schedulerName, "schedulerName is null");
    requireNonNull(schedulePeriod, "schedulePeriod is null");
    requireNonNull(nodePool, "nodePool is null");
    requireNonNull(queueLabelKey, "queueLabelKey is null");
    requireNonNull(engine, "engine is null");
    requireNonNull(leaderElection, "leaderElection is null");
    requireNonNull(usageDb, "usageDb is null");
    requireNonNull(workloadDefaults, "workloadDefaults is null");
    requireNonNull(cluster, "cluster is null");
    requireNonNull(startupTimeout, "startupTimeout is null");
    requireNonNull(gpuSharing, "gpuSharing is null");
    if (bindConcurrency < 1) {
      throw new IllegalArgumentException("bindConcurrency must be >= 1");
    }
    if (opsPort < 0 || opsPort > 65535) {
      // InetSocketAddress's own words, which the scheduler printed before settings checked ports
      throw new IllegalArgumentException("port out of range:" + opsPort);
    }
  }

  /**
   * Settings without a ConfigMap of per-type defaults, connecting with the in-cluster service
   * account, serving the ops endpoints on {@value #DEFAULT_OPS_PORT} and sharing GPUs through
   * reservation pods ({@link GpuSharingSpec#DEFAULTS}).
   */
  public SchedulerSettings(
      String schedulerName,
      Duration schedulePeriod,
      NodePool nodePool,
      String queueLabelKey,
      SchedulerConfig engine,
      LeaderElection leaderElection,
      int bindConcurrency,
      double statusWritesPerSecond,
      double eventsPerSecond,
      Optional<UsageDb> usageDb) {
    this(
        schedulerName,
        schedulePeriod,
        nodePool,
        queueLabelKey,
        engine,
        leaderElection,
        bindConcurrency,
        statusWritesPerSecond,
        eventsPerSecond,
        usageDb,
        Optional.empty(),
        ClusterAccess.defaults(),
        DEFAULT_STARTUP_TIMEOUT,
        DEFAULT_OPS_PORT,
        GpuSharingSpec.DEFAULTS);
  }

  /** The same settings for the pods of scheduler {@code name}. */
  public SchedulerSettings withSchedulerName(String name) {
    Change c = new Change(this);
    c.schedulerName = name;
    return c.build();
  }

  /** The same settings with {@code concurrency} binds (and evictions) under way at once. */
  public SchedulerSettings withBindConcurrency(int concurrency) {
    Change c = new Change(this);
    c.bindConcurrency = concurrency;
    return c.build();
  }

  /**
   * The same settings connecting to {@code cluster}, waiting for it at most {@code startupTimeout},
   * and serving ops on {@code opsPort}.
   */
  public SchedulerSettings withConnection(
      ClusterAccess cluster, Duration startupTimeout, int opsPort) {
    Change c = new Change(this);
    c.cluster = cluster;
    c.startupTimeout = startupTimeout;
    c.opsPort = opsPort;
    return c.build();
  }

  /** The same settings sharing GPUs as {@code sharing} says. */
  public SchedulerSettings withGpuSharing(GpuSharingSpec sharing) {
    Change c = new Change(this);
    c.gpuSharing = sharing;
    return c.build();
  }

  /**
   * A copy of every component, a few of them changed before {@link #build}: the one place the
   * {@code with…} methods list all fifteen (the canonical constructor still checks the result).
   */
  private static final class Change {
    private String schedulerName;
    private Duration schedulePeriod;
    private NodePool nodePool;
    private String queueLabelKey;
    private SchedulerConfig engine;
    private LeaderElection leaderElection;
    private int bindConcurrency;
    private double statusWritesPerSecond;
    private double eventsPerSecond;
    private Optional<UsageDb> usageDb;
    private Optional<String> workloadDefaults;
    private ClusterAccess cluster;
    private Duration startupTimeout;
    private int opsPort;
    private GpuSharingSpec gpuSharing;

    Change(SchedulerSettings from) {
      schedulerName = from.schedulerName;
      schedulePeriod = from.schedulePeriod;
      nodePool = from.nodePool;
      queueLabelKey = from.queueLabelKey;
      engine = from.engine;
      leaderElection = from.leaderElection;
      bindConcurrency = from.bindConcurrency;
      statusWritesPerSecond = from.statusWritesPerSecond;
      eventsPerSecond = from.eventsPerSecond;
      usageDb = from.usageDb;
      workloadDefaults = from.workloadDefaults;
      cluster = from.cluster;
      startupTimeout = from.startupTimeout;
      opsPort = from.opsPort;
      gpuSharing = from.gpuSharing;
    }

    SchedulerSettings build() {
      return new SchedulerSettings(
          schedulerName,
          schedulePeriod,
          nodePool,
          queueLabelKey,
          engine,
          leaderElection,
          bindConcurrency,
          statusWritesPerSecond,
          eventsPerSecond,
          usageDb,
          workloadDefaults,
          cluster,
          startupTimeout,
          opsPort,
          gpuSharing);
    }
  }
}
