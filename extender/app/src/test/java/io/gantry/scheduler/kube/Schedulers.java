package io.gantry.scheduler.kube;

import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.lease.LeaderElection;
import io.gantry.scheduler.kube.usage.UsageDb;
import java.time.Duration;
import java.util.Optional;

/**
 * Scheduler settings for tests: short periods, leader election as asked, and Gantry's device plugin
 * unless a test asks for reservation pods.
 */
public final class Schedulers {
  private Schedulers() {}

  /** The same settings, reading queue usage from {@code usageDb}. */
  public static SchedulerSettings withUsage(SchedulerSettings s, UsageDb usageDb) {
    return new SchedulerSettings(
            s.schedulerName(),
            s.schedulePeriod(),
            s.nodePool(),
            s.queueLabelKey(),
            s.engine(),
            s.leaderElection(),
            s.bindConcurrency(),
            s.statusWritesPerSecond(),
            s.eventsPerSecond(),
            Optional.of(usageDb))
        .withGpuSharing(s.gpuSharing());
  }

  public static SchedulerSettings settings(Duration period, Optional<String> identity) {
    return settings(period, identity, SchedulerConfig.DEFAULTS);
  }

  public static SchedulerSettings settings(
      Duration period, Optional<String> identity, SchedulerConfig engine) {
    return settings(period, identity, engine, SchedulerSettings.DEFAULT_BIND_CONCURRENCY);
  }

  public static SchedulerSettings settings(
      Duration period, Optional<String> identity, SchedulerConfig engine, int bindConcurrency) {
    return new SchedulerSettings(
            SchedulerSettings.DEFAULT_SCHEDULER_NAME,
            period,
            NodePool.ALL,
            "kai.scheduler/queue",
            engine,
            new LeaderElection(
                identity.isPresent(),
                "gantry-system",
                "gantry-scheduler",
                identity.orElse("single"),
                Duration.ofSeconds(3),
                Duration.ofSeconds(2),
                Duration.ofMillis(250)),
            bindConcurrency,
            1000,
            1000,
            Optional.empty())
        // these tests were written for Gantry's device plugin, the default before reservation pods
        .withGpuSharing(GpuSharingSpec.DEVICE_PLUGIN);
  }

  /** The same settings sharing GPUs through reservation pods, with {@code timeout} to wait. */
  public static SchedulerSettings reservationPods(SchedulerSettings s, Duration timeout) {
    return s.withGpuSharing(GpuSharingSpec.DEFAULTS.withReservationTimeout(timeout));
  }
}
