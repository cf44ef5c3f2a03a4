package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.RateLimiter;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupStatus;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiQueueStatus;
import io.gantry.scheduler.kube.crd.KaiSchedulingCondition;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodGroupReader;
import io.gantry.scheduler.kube.write.StatusPlanner.PodCondition;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupAnnotations;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupStatus;
import io.gantry.scheduler.kube.write.StatusPlanner.QueueStatus;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the status a cycle planned ({@link StatusPlanner}), and the PodGroups' lifecycle
 * annotations, from one background thread, at most {@code perSecond} writes a second. A write is
 * skipped when the cached object already shows it, or when the same value was queued or written
 * within {@link #RESUBMIT_AFTER} (the cache may not show it yet); a newer value for an object
 * replaces one still queued. Only the leader writes; a write that fails, or that a replica no
 * longer leading would make, is forgotten, so the next cycle planning it queues it again.
 *
 * <p>The cycle thread records each object's planned value and does nothing more when it equals the
 * recorded one: one lookup and one {@code equals} per object and cycle, however many objects a
 * large cluster has. A value that differs is compared with the cached object and queued unless the
 * cache shows it; the writing thread, when the object's turn comes, compares the latest queued
 * value with the cached object again and only then builds the patch.
 */
public final class StatusWriter implements AutoCloseable {
  static final Duration RESUBMIT_AFTER = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);

  private final ClusterInformers cache;
  private final KubeWriter writer;
  private final EventRecorder events;
  private final Leadership leadership;
  private final NodePool pool;
  private final Clock clock;
  private final RateLimiter limiter;
  private final Map<WriteKey, Queued> pending = new ConcurrentHashMap<>();
  private final BlockingQueue<WriteKey> order = new LinkedBlockingQueue<>();

  /** The value last planned for each object that differed from the one before, kept a while. */
  private final Cache<WriteKey, Object> submitted =
      CacheBuilder.newBuilder().expireAfterWrite(RESUBMIT_AFTER).maximumSize(500_000).build();

  private final Thread thread;
  private volatile boolean running = true;

  public StatusWriter(
      ClusterInformers cache,
      KubeWriter writer,
      EventRecorder events,
      Leadership leadership,
      NodePool pool,
      Clock clock,
      double perSecond) {
    this.cache = requireNonNull(cache, "cache is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.events = requireNonNull(events, "events is null");
    this.leadership = requireNonNull(leadership, "leadership is null");
    this.pool = requireNonNull(pool, "pool is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.limiter = RateLimiter.create(perSecond);
    this.thread = new Thread(this::drain, "gantry-status");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Queues the status writes of one cycle whose values were not queued already. */
  public void publish(LiveSnapshot live, CycleResult result) {
    publish(StatusPlanner.plan(live, result, pool));
  }

  void publish(StatusPlanner.Plan plan) {
    plan.pods().forEach(this::podCondition);
    plan.podGroups().forEach(this::podGroup);
    plan.lifecycles().forEach(this::lifecycle);
    plan.queues().forEach(this::queue);
  }

  /** Writes queued and not yet made. */
  int backlog() {
    return pending.size();
  }

  /** Which object a write is for: one queued write and one recorded value per key. */
  private record WriteKey(Kind kind, String namespace, String name) {
    @Override
    public String toString() {
      return kind.prefix + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
  }

  private enum Kind {
    POD("pod/"),
    POD_GROUP("podgroup/"),
    POD_GROUP_LIFECYCLE("podgroup-lifecycle/"),
    QUEUE("queue/");

    private final String prefix;

    Kind(String prefix) {
      this.prefix = prefix;
    }
  }

  /** A call to the API server. */
  private interface Write {
    void run() throws ApiException;
  }

  /**
   * Reads the cached object when a queued value's turn comes: the write that brings the object to
   * the value, or empty when the cache shows it already (or no longer has the object).
   */
  private interface Diff {
    Optional<Write> against();
  }

  /** A queued value and how to write it. */
  private record Queued(Object value, Diff diff) {}

  private void podCondition(PodCondition c) {
    PodFacts p = c.pod();
    WriteKey key = new WriteKey(Kind.POD, p.namespace(), p.name());
    if (!alreadySubmitted(key, c.message())) {
      submit(key, c.message(), () -> podConditionWrite(p, c.message()));
    }
  }

  private Optional<Write> podConditionWrite(PodFacts p, String message) {
    V1Pod cached = cache.pod(p.key());
    if (cached == null || showsUnschedulable(cached, message)) {
      return Optional.empty();
    }
    return Optional.of(
        () -> {
          writer.patchPodStatus(
              p.namespace(),
              p.name(),
              PodConditions.patch(
                  PodConditions.POD_SCHEDULED, "False", "Unschedulable", message, clock.instant()));
          events.warning(ObjectRef.pod(p), "Unschedulable", message);
        });
  }

  private static boolean showsUnschedulable(V1Pod pod, String message) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (V1PodCondition c : pod.getStatus().getConditions()) {
      if (PodConditions.POD_SCHEDULED.equals(c.getType())) {
        return "False".equals(c.getStatus())
            && "Unschedulable".equals(c.getReason())
            && message.equals(c.getMessage());
      }
    }
    return false;
  }

  private void podGroup(PodGroupStatus s) {
    WriteKey key = new WriteKey(Kind.POD_GROUP, s.namespace(), s.name());
    if (!alreadySubmitted(key, s)) {
      submit(key, s, () -> podGroupWrite(s));
    }
  }

  private Optional<Write> podGroupWrite(PodGroupStatus s) {
    KaiPodGroup cached = cache.podGroup(s.namespace(), s.name());
    if (cached == null) {
      return Optional.empty();
    }
    KaiPodGroupStatus current = cached.status();
    List<KaiSchedulingCondition> currentConditions =
        current == null || current.schedulingConditions() == null
            ? List.of()
            : current.schedulingConditions();
    boolean conditionsChange =
        s.conditions().isPresent() && !sameConditions(currentConditions, s.conditions().get());
    // a PodGroup the scheduler has not written yet has no resourcesStatus to spell amounts for
    boolean resourcesChange =
        current == null
            || current.resourcesStatus() == null
            || !current.resourcesStatus().equals(s.resources().toKai());
    if (!conditionsChange && !resourcesChange) {
      return Optional.empty();
    }
    Optional<String> transitionId =
        conditionsChange ? Optional.of(nextTransition(currentConditions)) : Optional.empty();
    return Optional.of(
        () ->
            writer.patchPodGroupStatus(
                s.namespace(),
                s.name(),
                StatusPatches.podGroupStatus(
                    s, transitionId, s.resources().toKai(), clock.instant())));
  }

  /** Patches the PodGroup's lifecycle annotations where the cached PodGroup differs. */
  private void lifecycle(PodGroupAnnotations a) {
    WriteKey key = new WriteKey(Kind.POD_GROUP_LIFECYCLE, a.namespace(), a.name());
    if (!alreadySubmitted(key, a)) {
      submit(key, a, () -> lifecycleWrite(a));
    }
  }

  private Optional<Write> lifecycleWrite(PodGroupAnnotations a) {
    KaiPodGroup cached = cache.podGroup(a.namespace(), a.name());
    if (cached == null) {
      return Optional.empty();
    }
    Map<String, String> current = PodGroupReader.annotations(cached);
    Map<String, Optional<String>> changes = new TreeMap<>();
    a.annotations()
        .forEach(
            (key, value) -> {
              if (!Objects.equals(current.get(key), value.orElse(null))) {
                changes.put(key, value);
              }
            });
    if (changes.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        () -> writer.patchPodGroup(a.namespace(), a.name(), StatusPatches.annotations(changes)));
  }

  private static boolean sameConditions(
      List<KaiSchedulingCondition> current, List<KaiSchedulingCondition> desired) {
    if (current.size() != desired.size()) {
      return false;
    }
    for (int i = 0; i < current.size(); i++) {
      KaiSchedulingCondition a = current.get(i);
      KaiSchedulingCondition b = desired.get(i);
      if (!Objects.equals(a.type(), b.type())
          || !Objects.equals(a.nodePool(), b.nodePool())
          || !Objects.equals(a.reason(), b.reason())
          || !Objects.equals(a.message(), b.message())
          || !Objects.equals(a.status(), b.status())) {
        return false;
      }
    }
    return true;
  }

  private static String nextTransition(List<KaiSchedulingCondition> current) {
    int highest = -1;
    for (KaiSchedulingCondition c : current) {
      try {
        highest = Math.max(highest, Integer.parseInt(c.transitionID()));
      } catch (NumberFormatException e) {
        // not one of ours: start counting after it
      }
    }
    return Integer.toString(highest + 1);
  }

  private void queue(QueueStatus s) {
    WriteKey key = new WriteKey(Kind.QUEUE, "", s.name());
    if (!alreadySubmitted(key, s)) {
      submit(key, s, () -> queueWrite(s));
    }
  }

  private Optional<Write> queueWrite(QueueStatus s) {
    KaiQueue cached = cache.queue(s.name());
    if (cached == null) {
      return Optional.empty();
    }
    KaiQueueStatus current = cached.status();
    if (current != null
        && Objects.equals(current.allocated(), s.allocated())
        && Objects.equals(current.allocatedNonPreemptible(), s.allocatedNonPreemptible())
        && Objects.equals(current.requested(), s.requested())) {
      return Optional.empty();
    }
    return Optional.of(() -> writer.patchQueueStatus(s.name(), StatusPatches.queueStatus(s)));
  }

  /**
   * Whether an equal value }); }
   *
   * <p>/** Whether an equal value was queued, written or found shown within the last while.
   */
  private boolean alreadySubmitted(WriteKey key, Object value) {
    return value.equals(submitted.getIfPresent(key));
  }

  /**
   * Records a value that differs from the one recorded and queues it unless the cache shows it. A
   * value the cache shows leaves a queued write alone: a job's start time, for one, is planned in
   * the cycle that starts it, and the cycles after plan what the PodGroup's annotations say until
   * the write queued for it is made.
   */
  private void submit(WriteKey key, Object value, Diff diff) {
    submitted.put(key, value);
    if (diff.against().isPresent() && pending.put(key, new Queued(value, diff)) == null) {
      order.add(key);
    }
  }

  private void drain() {
    while (running) {
      try {
        WriteKey key = order.take();
        Queued queued = pending.remove(key);
        if (queued != null) {
          write(key, queued);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Makes the write a queued value still needs; one the cache shows by now takes no turn of the
   * rate limit. Once written, a different value recorded meanwhile without a write of its own (the
   * cache showed it) is forgotten: the write may have changed what the cache will show.
   */
  private void write(WriteKey key, Queued queued) {
    try {
      Optional<Write> write = queued.diff().against();
      if (write.isEmpty()) {
        return;
      }
      limiter.acquire();
      if (!leadership.isLeader()) {
        forget(key, queued.value());
        return;
      }
      write.get().run();
      Object recorded = submitted.getIfPresent(key);
      if (recorded != null && !recorded.equals(queued.value()) && !pending.containsKey(key)) {
        forget(key, recorded);
      }
    } catch (ApiException | RuntimeException e) {
      forget(key, queued.value());
      LOG.debug("status write {} failed: {}", key, e.toString());
    }
  }

  /** Forgets the value unless a newer one was queued meanwhile. */
  private void forget(WriteKey key, Object value) {
    submitted.asMap().remove(key, value);
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
