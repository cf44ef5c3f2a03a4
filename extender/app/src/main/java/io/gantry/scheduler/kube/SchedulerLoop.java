package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.grouping.PodGrouper;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.reserve.GpuSharingUpkeep;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PriorityClassReader;
import io.gantry.scheduler.kube.snapshot.SnapshotBuilder;
import io.gantry.scheduler.kube.write.Binder;
import io.gantry.scheduler.kube.write.ClaimReleaser;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.Evictor;
import io.gantry.scheduler.kube.write.ObjectRef;
import io.gantry.scheduler.kube.write.StatusWriter;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling loop: every {@code period}, measured from the end of one cycle to the start of the
 * next (KAI's {@code schedulePeriod}; the first cycle starts as soon as it may), the leader
 * releases the DRA claims of pods that are gone, groups new pods, takes a snapshot of the caches,
 * runs the engine's cycle, and applies what it decided: binds and evictions go to the asynchronous
 * {@link Binder} and {@link Evictor}, events to the {@link EventRecorder}, status to the {@link
 * StatusWriter}; in reservation-pods mode the {@link GpuSharingUpkeep} then cleans reservation pods
 * up and keeps the scaling pods. A standby does nothing but keep its caches warm.
 */
final class SchedulerLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerLoop.class);
  private static final Duration STARTUP_POLL = Duration.ofMillis(50);

  private final ClusterInformers cache;
  private final SnapshotBuilder snapshots;
  private final PodGrouper grouper;
  private final SchedulingCycle cycle;
  private final Binder binder;
  private final ClaimReleaser claims;
  private final Evictor evictor;
  private final EventRecorder events;
  private final StatusWriter status;
  private final SchedulerMetrics metrics;
  private final Leadership leadership;
  private final Duration period;
  private final Optional<GpuSharingUpkeep> sharing;
  private final ScheduledExecutorService thread;
  private volatile ScheduledFuture<?> schedule;
  private final AtomicLong cycles = new AtomicLong();
  private volatile long lastCycleEndNanos = System.nanoTime();

  SchedulerLoop(
      ClusterInformers cache,
      SnapshotBuilder snapshots,
      PodGrouper grouper,
      SchedulingCycle cycle,
      Binder binder,
      ClaimReleaser claims,
      Evictor evictor,
      EventRecorder events,
      StatusWriter status,
      SchedulerMetrics metrics,
      Leadership leadership,
      Duration period,
      Optional<GpuSharingUpkeep> sharing) {
    this.cache = requireNonNull(cache, "cache is null");
    this.snapshots = requireNonNull(snapshots, "snapshots is null");
    this.grouper = requireNonNull(grouper, "grouper is null");
    this.cycle = requireNonNull(cycle, "cycle is null");
    this.binder = requireNonNull(binder, "binder is null");
    this.claims = requireNonNull(claims, "claims is null");
    this.evictor = requireNonNull(evictor, "evictor is null");
    this.events = requireNonNull(events, "events is null");
    this.status = requireNonNull(status, "status is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.leadership = requireNonNull(leadership, "leadership is null");
    this.period = requireNonNull(period, "period is null");
    this.sharing = requireNonNull(sharing, "sharing is null");
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gantry-cycle");
              t.setDaemon(true);
              return t;
            });
  }

  void start() {
    schedule = thread.schedule(this::tick, 0, TimeUnit.MILLISECONDS);
  }

  /**
   * Runs a cycle if it may, then schedules the next one a period after this one's end; until the
   * first cycle has run, every {@link #STARTUP_POLL} instead, so the first cycle starts as soon as
   * the caches sync and the lease is won, not up to a period later.
   */
  private void tick() {
    boolean ran = cycleSafely();
    long delayMillis =
        ran || cycles.get() > 0
            ? period.toMillis()
            : Math.min(period.toMillis(), STARTUP_POLL.toMillis());
    if (!thread.isShutdown()) {
      schedule = thread.schedule(this::tick, delayMillis, TimeUnit.MILLISECONDS);
    }
  }

  /** Cycles run so far (as leader, with synced caches). */
  long cycles() {
    return cycles.get();
  }

  /** Whether the loop ran (or chose not to run) within a few periods: its thread is alive. */
  boolean healthy() {
    // a periodic task's future completes only when the task died: the loop no longer runs
    if (schedule == null || schedule.isDone()) {
      return false;
    }
    return System.nanoTime() - lastCycleEndNanos < Math.max(period.toNanos() * 10, 30_000_000_000L);
  }

  /** Whether a cycle ran (also one that failed). */
  private boolean cycleSafely() {
    try {
      return runCycle();
    } catch (RuntimeException e) {
      LOG.error("scheduling cycle failed", e);
      return true;
    } finally {
      lastCycleEndNanos = System.nanoTime();
    }
  }

  /**
   * One cycle, if this replica leads and its caches have synced.
   *
   * @return whether it ran
   */
  boolean runCycle() {
    if (!leadership.isLeader() || !cache.hasSynced()) {
      LOG.debug("no cycle: leader {}, synced {}", leadership.isLeader(), cache.hasSynced());
      return false;
    }
    long start = System.nanoTime();
    binder.prune();
    claims.run();
    grouper.run(PriorityClassReader.read(cache.priorityClasses()));
    LiveSnapshot live = snapshots.build();
    CycleResult result = cycle.run(live.snapshot(), metrics.cycleMeters());
    apply(result, live);
    sharing.ifPresent(s -> s.run(live, decided(result)));
    status.publish(live, result);
    double millis = (System.nanoTime() - start) / 1e6;
    metrics.cycle(result, live, millis);
    // counted last, so whoever waits on cycles() sees the cycle's metrics recorded too
    cycles.incrementAndGet();
    LOG.debug(
        "cycle {}: {} jobs, {} nodes, {} decisions in {} ms",
        cycles.get(),
        live.snapshot().jobs().size(),
        live.snapshot().nodes().size(),
        result.decisions().size(),
        Math.round(millis));
    return true;
  }

  /** The tasks this cycle bound or pipelined. */
  private static Set<String> decided(CycleResult result) {
    Set<String> decided = new TreeSet<>();
    for (Decision d : result.decisions()) {
      if (d.kind() != Decision.Kind.EVICT) {
        decided.add(d.taskId());
      }
    }
    return decided;
  }

  private void apply(CycleResult result, LiveSnapshot live) {
    Map<String, TaskInfo> tasks = new HashMap<>();
    for (JobInfo job : live.snapshot().jobs()) {
      for (TaskInfo t : job.tasks()) {
        tasks.put(t.id(), t);
      }
    }
    for (Decision d : result.decisions()) {
      PodFacts pod = live.pods().get(d.taskId());
      if (pod == null) {
        continue;
      }
      switch (d.kind()) {
        case BIND -> binder.submit((BindDecision) d, pod, tasks.get(d.taskId()));
        case EVICT -> evictor.submit((EvictDecision) d, pod);
        case PIPELINE -> {
          // nothing to write: the task is decided anew once the resources are released
        }
      }
    }
    for (CycleEvent e : result.events()) {
      PodFacts pod = live.pods().get(e.object());
      KaiPodGroup pg = live.podGroups().get(e.object());
      switch (e.reason()) {
        case "Scheduled", "Pipelined", "Evict" -> {
          if (pod != null) {
            events.normal(ObjectRef.pod(pod), e.reason(), e.message());
          }
        }
        default -> {
          if (pg != null) {
            events.normal(ObjectRef.podGroup(pg), e.reason(), e.message());
          } else if (pod != null) {
            events.normal(ObjectRef.pod(pod), e.reason(), e.message());
          }
        }
      }
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
