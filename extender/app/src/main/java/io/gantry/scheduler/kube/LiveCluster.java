package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.explain.ExplainService;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.grouping.OwnerResolver;
import io.gantry.scheduler.kube.grouping.PodGrouper;
import io.gantry.scheduler.kube.grouping.WorkloadDefaultsConfigMap;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.informers.OwnerCache;
import io.gantry.scheduler.kube.reserve.GpuReserver;
import io.gantry.scheduler.kube.reserve.ReservationCleanup;
import io.gantry.scheduler.kube.reserve.SharedGpuBind;
import io.gantry.scheduler.kube.snapshot.GpuInventoryReader;
import io.gantry.scheduler.kube.snapshot.InFlightBinds;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodFactsMemo;
import io.gantry.scheduler.kube.snapshot.PriorityClassReader;
import io.gantry.scheduler.kube.snapshot.QueueReader;
import io.gantry.scheduler.kube.snapshot.SnapshotBuilder;
import io.gantry.scheduler.kube.snapshot.SnapshotScope;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.GpuAllocations;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.kube.write.ObjectRef;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live cluster for a front door that is not the secondary scheduler (the HTTP extender): the
 * same informer caches and snapshot as the scheduler, and synchronous writes: a bind writes the
 * {@value GpuAllocation#ANNOTATION} annotation first (for a task with GPUs), then the binding, and
 * returns once the API server has answered; in reservation-pods mode a fraction pod's GPUs are
 * reserved first (see {@link #bind}) and a background task cleans reservation pods up. Pods join
 * through their PodGroup annotation. The pods of the default scheduler are not all Gantry's: no pod
 * is grouped in the background, only the one a front door asks for ({@link #group}), with the live
 * scheduler's pod grouper.
 */
public final class LiveCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LiveCluster.class);
  private static final Duration CLEANUP_PERIOD = Duration.ofSeconds(2);
  private static final Duration CACHE_POLL = Duration.ofMillis(20);

  private final ClusterInformers informers;
  private final KubeWriter writer;
  private final EventRecorder events;
  private final SnapshotBuilder snapshots;
  private final Clock clock;
  private final Optional<SharedGpuBind> sharedGpus;
  private final PodGrouper grouper;
  private final OwnerCache owners;

  /**
   * Fraction pods whose bind waits for a reservation: {@code node/group} each references, until
   * when (kube-scheduler asks again; the cleanup must not take their reservation pod meanwhile).
   */
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

  private final Optional<ReservationCleanup> cleanup;

  /**
   * Runs the cleanup once this front door has bound a fraction pod: an extender that only serves
   * the admission webhook (scheduler mode) never binds, and must not delete the reservation pods of
   * the scheduler's binds.
   */
  private volatile ScheduledExecutorService upkeep;

  /** The pods the last snapshot left out, with why. */
  private volatile ImmutableMap<String, String> leftOut = ImmutableMap.of();

  private record Waiting(ImmutableList<String> groups, Instant until) {}

  private LiveCluster(ApiClient client, SchedulerSettings settings, Clock clock) {
    this.informers = new ClusterInformers(client);
    this.writer = new KubeWriter(client);
    this.clock = clock;
    this.events =
        new EventRecorder(writer, settings.schedulerName(), clock, settings.eventsPerSecond());
    this.owners = informers.owners(clock);
    PodFactsMemo podFacts = new PodFactsMemo();
    // writes run on the asking thread: group() returns once the PodGroup and the pod's annotation
    // are written
    this.grouper =
        new PodGrouper(
            informers,
            new OwnerResolver(owners, () -> podFacts.of(informers.pods())),
            writer,
            events,
            Runnable::run,
            settings.schedulerName(),
            new QueueAssignment(settings.queueLabelKey(), settings.nodePool().labelKey()),
            new WorkloadDefaultsConfigMap(owners, settings.workloadDefaults()),
            podFacts);
    this.snapshots =
        new SnapshotBuilder(
            informers,
            new SnapshotScope(
                settings.schedulerName(), settings.nodePool(), settings.gpuSharing().mode()),
            clock,
            InFlightBinds.NONE,
            grouper,
            UsageSource.NONE,
            // the extender's metrics registry is built after its cluster: the log and the event
            // report an unreadable GPU inventory there
            new GpuInventoryReader(events, Optional.empty()),
            podFacts);
    GpuSharingSpec sharing = settings.gpuSharing();
    if (sharing.reservationPods()) {
      this.sharedGpus =
          Optional.of(
              new SharedGpuBind(writer, new GpuReserver(writer, sharing, clock), informers::node));
      this.cleanup =
          Optional.of(
              new ReservationCleanup(
                  writer, events, sharing.reservationNamespace(), this::groupsWaiting));

    } else {
      this.sharedGpus = Optional.empty();
      this.cleanup = Optional.empty();
    }
  }

  /** Starts the periodic cleanup, once. */
  private synchronized void startCleanup() {
    if (upkeep != null || cleanup.isEmpty()) {
      return;
    }
    ScheduledExecutorService thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gantry-reservation-cleanup");
              t.setDaemon(true);
              return t;
            });
    var unused =
        thread.scheduleWithFixedDelay(
            () -> cleanUp(cleanup.get()),
            CLEANUP_PERIOD.toMillis(),
            CLEANUP_PERIOD.toMillis(),
            TimeUnit.MILLISECONDS);
    upkeep = thread;
  }

  /** The reservation cleanup over the cached pods, once the caches have synced. */
  private void cleanUp(ReservationCleanup cleanup) {
    try {
      if (informers.hasSynced()) {
        cleanup.run(informers.pods());
      }
    } catch (RuntimeException e) {
      LOG.warn("reservation cleanup failed", e);
    }
  }

  private Set<String> groupsWaiting() {
    Instant now = clock.instant();
    waiting.values().removeIf(w -> w.until().isBefore(now));
    Set<String> groups = new TreeSet<>();
    waiting.values().forEach(w -> groups.addAll(w.groups()));
    return groups;
  }

  /** Starts the informers; {@link #ready} tells when their caches have synced. */
  public static LiveCluster start(ApiClient client, SchedulerSettings settings, Clock clock) {
    requireNonNull(client, "client is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    LiveCluster c = new LiveCluster(client, settings, clock);
    c.informers.start();
    return c;
  }

  public boolean ready() {
    return informers.hasSynced();
  }

  /** The cluster now, as the secondary scheduler's cycle would see it. */
  public ClusterSnapshot snapshot() {
    return reading().snapshot();
  }

  /** The cluster now and the pods its snapshot leaves out, as {@code gantry explain} reads it. */
  public ExplainService.Reading reading() {
    LiveSnapshot live = snapshots.build();
    leftOut = live.leftOutPods();
    return new ExplainService.Reading(live.snapshot(), leftOut);
  }

  /** Why the last {@link #snapshot} left out the pod; empty when it did not. */
  public Optional<String> leftOut(String podKey) {
    return Optional.ofNullable(leftOut.get(podKey));
  }

  /**
   * The status the pod's task would have in a snapshot taken now, from the caches without building
   * one; empty when no snapshot would make it a task (see {@link SnapshotBuilder#candidateStatus}).
   */
  public Optional<TaskStatus> candidateStatus(String podKey) {
    return snapshots.candidateStatus(podKey);
  }

  /**
   * Groups {@code pod} (the cached pod, else {@code request}, the pod a front door was sent) as the
   * live scheduler's pod grouper does, and waits up to {@code wait} for the caches to show it in
   * its PodGroup.
   *
   * @return the PodGroup's name once {@link #candidateStatus} holds the pod; else why the pod waits
   *     ({@code Pod NS/NAME cannot be grouped: …}); empty when the grouper left it alone or the
   *     caches did not show it in time
   */
  public GroupingResult group(String namespace, String name, V1Pod request, Duration wait)
      throws InterruptedException {
    V1Pod cached = informers.pod(PodFacts.key(namespace, name));
    String key = namespace + "/" + name;
    grouper.groupNow(
        cached != null ? cached : request, PriorityClassReader.read(informers.priorityClasses()));
    Optional<String> problem = grouper.problem(key);
    if (problem.isPresent()) {
      return new GroupingResult(Optional.empty(), problem);
    }
    // real time, not the scheduling clock: this waits for the informers' watch events
    long deadline = System.nanoTime() + wait.toNanos();
    while (snapshots.candidateStatus(key).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(CACHE_POLL.toMillis());
    }
    if (snapshots.candidateStatus(key).isEmpty()) {
      return new GroupingResult(Optional.empty(), Optional.empty());
    }
    V1Pod now = informers.pod(PodFacts.key(namespace, name));
    return new GroupingResult(
        grouper
            .assigned(key)
            .or(() -> Optional.ofNullable(now).map(PodFacts::of).flatMap(PodFacts::podGroupName)),
        Optional.empty());
  }

  /** What {@link #group} did: the pod's PodGroup, or why it waits; both empty when neither. */
  public record GroupingResult(Optional<String> podGroup, Optional<String> problem) {}

  /** The cached Queues with their parents, orphans included (without building a snapshot). */
  public QueueHierarchy queueHierarchy() {
    return QueueReader.hierarchy(informers.queues());
  }

  /** The key ({@code namespace/name}, a task's id) of the cached pod with this UID. */
  public Optional<String> podKeyOfUid(String uid) {
    return informers.podKeyOfUid(uid);
  }

  /**
   * Binds the task's pod to {@code node}, the GPU allocation annotation carried on the binding. A
   * pod already bound to {@code node} counts as bound.
   *
   * @throws IOException with the API server's answer when the pod was not bound
   */
  public void bind(TaskInfo task, String node, ImmutableList<String> gpuGroups, GpuAmount portion)
      throws IOException {
    try {
      // kube-scheduler's bind verb names a node, not devices: the node's device plugin picks them
      // (or, for a fraction pod in reservation-pods mode, its reservation pods)
      Optional<GpuAllocation> allocation =
          GpuAllocations.of(task, node, gpuGroups, portion, ImmutableList.of());
      boolean shared =
          allocation.isPresent() && allocation.get().isShared() && sharedGpus.isPresent();
      if (shared) {
        prepareShared(task, allocation.get());
      }
      // the allocation rides on the binding (one write); a reserved shared GPU's allocation, with
      // the device's UUID, was written on the pod by prepareShared
      KubeWriter.BindResponse response =
          writer.bind(
              task.namespace(),
              task.podName(),
              node,
              allocation.isPresent() && !shared
                  ? Map.of(GpuAllocation.ANNOTATION, GpuAllocationJson.write(allocation.get()))
                  : Map.of());
      if (response.ok()
          || (response.code() == 409 && response.body().contains("node \\\"" + node + "\\\""))) {
        return;
      }
      throw new IOException(
          "binding pod "
              + task.namespace()
              + "/"
              + task.podName()
              + " to node "
              + node
              + ": HTTP "
              + response.code()
              + " "
              + response.body());
    } catch (ApiException e) {
      throw new IOException(
          "binding pod "
              + task.namespace()
              + "/"
              + task.podName()
              + ": HTTP "
              + e.getCode()
              + " "
              + e.getResponseBody(),
          e);
    }
  }

  /**
   * Reserves the fraction pod's GPUs ({@link SharedGpuBind}) and writes its resolved allocation.
   * kube-scheduler waits on a bind for seconds, not for a reservation pod's start: while the
   * reservation is under way the bind fails with why, and kube-scheduler's next attempt carries on
   * where this one stopped.
   */
  private void prepareShared(TaskInfo task, GpuAllocation allocation)
      throws IOException, ApiException {
    String key = task.namespace() + "/" + task.podName();
    V1Pod pod = informers.pod(PodFacts.key(task.namespace(), task.podName()));
    if (pod == null) {
      throw new IOException("binding pod " + key + ": the pod is not in the cache");
    }
    SharedGpuBind gpus = sharedGpus.orElseThrow();
    startCleanup();
    waiting.put(
        key,
        new Waiting(
            allocation.gpuGroups().stream()
                .map(g -> allocation.node() + "/" + g)
                .collect(ImmutableList.toImmutableList()),
            clock.instant().plus(gpus.reservationTimeout().multipliedBy(2))));
    SharedGpuBind.Outcome outcome = gpus.prepare(pod, allocation);
    if (outcome instanceof SharedGpuBind.Waiting w) {
      throw new IOException("binding pod " + key + ": " + w.why());
    }
    waiting.remove(key);
    if (outcome instanceof SharedGpuBind.Failed f) {
      throw new IOException(
          "binding pod " + key + " to node " + allocation.node() + ": " + f.cause());
    }
  }

  /** A warning event on the task's pod. */
  public void warn(TaskInfo task, String reason, String message) {
    V1Pod pod = informers.pod(PodFacts.key(task.namespace(), task.podName()));
    String uid =
        pod == null || pod.getMetadata().getUid() == null ? "" : pod.getMetadata().getUid();
    events.warning(
        new ObjectRef("v1", "Pod", task.namespace(), task.podName(), uid), reason, message);
  }

  @Override
  public void close() {
    synchronized (this) {
      if (upkeep != null) {
        upkeep.shutdownNow();
      }
    }
    events.close();
    owners.close();
    informers.close();
  }
}
