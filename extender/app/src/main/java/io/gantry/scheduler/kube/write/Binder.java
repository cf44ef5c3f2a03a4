package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableSet;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.reserve.SharedGpuBind;
import io.gantry.scheduler.kube.snapshot.InFlightBind;
import io.gantry.scheduler.kube.snapshot.InFlightBinds;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out bind decisions asynchronously on a bounded pool: allocates and reserves the task's
 * DRA claims ({@link ClaimReservations#reserve}), then creates the {@code pods/binding}
 * subresource, which carries a GPU task's {@value GpuAllocation#ANNOTATION} annotation onto the pod
 * in the same write; a claim that cannot be written leaves the pod unbound. Transient failures
 * (I/O, 5xx, 429) are retried with backoff; a pod already bound to the chosen node counts as bound,
 * so a retry or a second replica's attempt is harmless (idempotent).
 *
 * <p>From the decision until the pod cache shows the pod bound, the pod is in flight: the snapshot
 * counts it as {@code Binding} on its node ({@link #inFlight}), so no later cycle gives its
 * resources away. A bind that fails for good leaves flight, emits {@code FailedBinding} and sets
 * {@code PodScheduled=False/BindingError}; the pod is pending again in the next cycle. Only the
 * leader writes: an attempt made after leadership is lost is dropped.
 *
 * <p>In reservation-pods mode a fraction pod's bind first reserves its GPU groups ({@link
 * SharedGpuBind}): the attempt asks again every {@link #RESERVATION_POLL} until each group's
 * reservation pod has reported its GPU, without holding a thread while it waits; a reservation that
 * fails or times out fails the bind as above, naming the reservation pod.
 */
public final class Binder implements InFlightBinds {
  private static final Logger LOG = LoggerFactory.getLogger(Binder.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration RESERVATION_POLL = Duration.ofMillis(200);
  private static final Duration RESERVATION_MARGIN = Duration.ofSeconds(5);

  private final KubeWriter writer;
  private final ClaimReservations claims;
  private final ClusterInformers cache;
  private final Leadership leadership;
  private final EventRecorder events;
  private final SchedulerMetrics metrics;
  private final ScheduledExecutorService executor;
  private final Clock clock;
  private final Backoff backoff;
  private final Optional<SharedGpuBind> sharedGpus;
  private final Duration reservationWait;
  private final Map<String, Flight> flights = new ConcurrentHashMap<>();

  /** One bind in flight. {@code done}: the binding exists; waiting for the cache to show it. */
  private static final class Flight {
    final InFlightBind bind;
    final PodFacts pod;
    final Optional<GpuAllocation> allocation;
    final long startNanos = System.nanoTime();
    final Instant reservationDeadline;
    volatile boolean done;

    Flight(
        InFlightBind bind,
        PodFacts pod,
        Optional<GpuAllocation> allocation,
        Instant reservationDeadline) {
      this.bind = bind;
      this.pod = pod;
      this.allocation = allocation;
      this.reservationDeadline = reservationDeadline;
    }
  }

  public Binder(
      KubeWriter writer,
      ClusterInformers cache,
      Leadership leadership,
      EventRecorder events,
      SchedulerMetrics metrics,
      ScheduledExecutorService executor,
      Clock clock,
      Backoff backoff,
      Optional<SharedGpuBind> sharedGpus) {
    this.writer = requireNonNull(writer, "writer is null");
    this.claims = new ClaimReservations(writer);
    this.cache = requireNonNull(cache, "cache is null");
    this.leadership = requireNonNull(leadership, "leadership is null");
    this.events = requireNonNull(events, "events is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.backoff = requireNonNull(backoff, "backoff is null");
    this.sharedGpus = requireNonNull(sharedGpus, "sharedGpus is null");
    // the reservation pod's own timeout runs from its creation; this bounds the wait for one that
    // cannot even be created (scaling pods pending), with a margin for the API round trips
    this.reservationWait =
        sharedGpus.map(g -> g.reservationTimeout().plus(RESERVATION_MARGIN)).orElse(Duration.ZERO);
  }

  @Override
  public Optional<InFlightBind> inFlight(String podKey) {
    Flight f = flights.get(podKey);
    return f == null ? Optional.empty() : Optional.of(f.bind);
  }

  public int inFlightCount() {
    return flights.size();
  }

  /** Starts a bind; a pod already in flight is left to the bind under way. */
  public void submit(BindDecision decision, PodFacts pod, TaskInfo task) {
    Optional<GpuAllocation> allocation =
        GpuAllocations.of(
            task,
            decision.nodeName(),
            decision.gpuGroups(),
            decision.gpuPortion(),
            decision.gpuDevices());
    Flight flight =
        new Flight(
            new InFlightBind(
                pod.uid(),
                decision.nodeName(),
                decision.gpuGroups(),
                decision.gpuPortion(),
                decision.claimAllocations()),
            pod,
            allocation,
            clock.instant().plus(reservationWait));
    if (flights.putIfAbsent(pod.key(), flight) == null) {
      metrics.taskScheduled(Duration.between(pod.createdAt(), clock.instant()));
      executor.execute(() -> attempt(flight, 0));
    }
  }

  /** The GPU groups of the binds in flight, as {@code node/group}. */
  public ImmutableSet<String> groupsInFlight() {
    ImmutableSet.Builder<String> groups = ImmutableSet.builder();
    for (Flight f : flights.values()) {
      f.bind.gpuGroups().forEach(g -> groups.add(f.bind.node() + "/" + g));
    }
    return groups.build();
  }

  /** Whether a bind in flight writes this claim ({@code namespace/name}). */
  public boolean writesClaim(String claimKey) {
    for (Flight f : flights.values()) {
      for (ClaimAllocation c : f.bind.claims()) {
        if (ResourceClaim.key(f.pod.namespace(), c.claimName()).equals(claimKey)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Forgets binds the caches now show (bound with its claims reserved, gone or replaced); called
   * before each snapshot.
   */
  public void prune() {
    flights
        .values()
        .removeIf(
            f -> {
              V1Pod pod = cache.pod(f.pod.key());
              if (pod == null || !f.pod.uid().equals(pod.getMetadata().getUid())) {
                return true;
              }
              String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
              return f.done && node != null && !node.isEmpty() && claimsCached(f);
            });
  }

  /** Whether the claim cache shows each of the bind's claims reserved for its pod. */
  private boolean claimsCached(Flight f) {
    for (ClaimAllocation c : f.bind.claims()) {
      DynamicKubernetesObject claim = cache.dra().claim(f.pod.namespace(), c.claimName());
      if (claim == null || !ClaimStatus.reservesUid(claim, f.pod.uid())) {
        return false;
      }
    }
    return true;
  }

  private void attempt(Flight f, int n) {
    if (flights.get(f.pod.key()) != f) {
      return;
    }
    if (!leadership.isLeader()) {
      flights.remove(f.pod.key(), f);
      return;
    }
    V1Pod cached = cache.pod(f.pod.key());
    if (cached == null || !f.pod.uid().equals(cached.getMetadata().getUid())) {
      flights.remove(f.pod.key(), f);
      return;
    }
    String bound = cached.getSpec() == null ? null : cached.getSpec().getNodeName();
    if (bound != null && !bound.isEmpty()) {
      if (bound.equals(f.bind.node())) {
        f.done = true;
      } else {
        fail(f, "pod is already assigned to node " + bound);
      }
      return;
    }
    try {
      for (ClaimAllocation c : f.bind.claims()) {
        claims.reserve(f.pod.namespace(), f.pod.name(), f.pod.uid(), c);
      }
      boolean shared =
          f.allocation.isPresent() && f.allocation.get().isShared() && sharedGpus.isPresent();
      if (shared) {
        SharedGpuBind.Outcome prepared = sharedGpus.get().prepare(cached, f.allocation.get());
        if (prepared instanceof SharedGpuBind.Waiting w) {
          waitForReservation(f, n, w.why());
          return;
        }
        if (prepared instanceof SharedGpuBind.Failed failed) {
          fail(f, failed.cause());
          return;
        }
      }
      // the allocation rides on the binding: one write a pod, and no node agent ever sees the pod
      // bound without it; a reserved shared GPU's allocation (with the device's UUID) was written
      // on the pod by SharedGpuBind and must not be replaced by the unresolved one
      KubeWriter.BindResponse response =
          writer.bind(
              f.pod.namespace(),
              f.pod.name(),
              f.bind.node(),
              f.allocation.isPresent() && !shared
                  ? Map.of(GpuAllocation.ANNOTATION, GpuAllocationJson.write(f.allocation.get()))
                  : Map.of());
      if (response.ok()) {
        f.done = true;
        metrics.bind((System.nanoTime() - f.startNanos) / 1e6);
      } else if (response.code() == 409 && statusMessage(response).contains("already assigned")) {
        // the API server's words: pod p is already assigned to node "n1"
        if (statusMessage(response).endsWith("node \"" + f.bind.node() + "\"")) {
          f.done = true;
        } else {
          fail(f, message(response));
        }
      } else if (response.code() == 404) {
        flights.remove(f.pod.key(), f);
      } else if (retriable(response.code())) {
        retry(f, n, message(response));
      } else {
        fail(f, message(response));
      }
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        flights.remove(f.pod.key(), f);
      } else if (e.getCode() == 0 || retriable(e.getCode()) || e.getCode() == 409) {
        retry(f, n, "HTTP " + e.getCode() + " " + e.getMessage());
      } else {
        fail(f, "HTTP " + e.getCode() + " " + e.getResponseBody());
      }
    } catch (ClaimReservations.ClaimRefused e) {
      fail(f, e.getMessage());
    } catch (IOException | RuntimeException e) {
      retry(f, n, e.toString());
    }
  }

  /**
   * Asks again after {@link #RESERVATION_POLL} while the reservation is under way; past the
   * deadline the bind fails with what it waited for.
   */
  private void waitForReservation(Flight f, int n, String why) {
    if (!clock.instant().isBefore(f.reservationDeadline)) {
      fail(f, "timed out " + why);
      return;
    }
    LOG.debug("bind of {}: {}", f.pod.key(), why);
    var unused =
        executor.schedule(
            () -> attemptOrFail(f, n), RESERVATION_POLL.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The message of the Status object the API server answered with; empty when it sent none. */
  private static String statusMessage(KubeWriter.BindResponse response) {
    try {
      return JSON.readTree(response.body()).path("message").asText("");
    } catch (IOException e) {
      return "";
    }
  }

  private static boolean retriable(int code) {
    return code == 429 || code >= 500;
  }

  private static String message(KubeWriter.BindResponse response) {
    return "HTTP " + response.code() + " " + response.body();
  }

  private void retry(Flight f, int n, String why) {
    if (n + 1 >= backoff.attempts()) {
      fail(f, why);
      return;
    }
    LOG.debug("bind of {} to {} failed ({}); retrying", f.pod.key(), f.bind.node(), why);
    // the retry settles its own flight, also when it fails unexpectedly, so its future has nothing
    // left to report
    var unused =
        executor.schedule(
            () -> attemptOrFail(f, n + 1), backoff.after(n).toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A retry that never leaves its pod counted as binding when something unexpected breaks. */
  private void attemptOrFail(Flight f, int n) {
    try {
      attempt(f, n);
    } catch (RuntimeException e) {
      fail(f, e.toString());
    }
  }

  private void fail(Flight f, String why) {
    flights.remove(f.pod.key(), f);
    metrics.bindFailed();
    String message = "Failed to bind pod " + f.pod.key() + " to node " + f.bind.node() + ": " + why;
    LOG.warn(message);
    if (!leadership.isLeader()) {
      return;
    }
    events.warning(ObjectRef.pod(f.pod), "FailedBinding", message);
    try {
      writer.patchPodStatus(
          f.pod.namespace(),
          f.pod.name(),
          PodConditions.patch(
              PodConditions.POD_SCHEDULED, "False", "BindingError", message, clock.instant()));
    } catch (ApiException e) {
      LOG.debug("writing BindingError on {}: HTTP {}", f.pod.key(), e.getCode());
    }
  }
}
