package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.kubernetes.client.openapi.ApiException;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out evict decisions asynchronously: adds the {@code DisruptionTarget} condition (reason
 * {@code PreemptionByScheduler}, the decision's message), then deletes the pod with a uid
 * precondition, so a pod recreated under the same name is never deleted in its place. Transient
 * failures are retried with backoff; only the leader writes.
 */
public final class Evictor {
  private static final Logger LOG = LoggerFactory.getLogger(Evictor.class);

  private final KubeWriter writer;
  private final Leadership leadership;
  private final ScheduledExecutorService executor;
  private final Clock clock;
  private final Backoff backoff;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  public Evictor(
      KubeWriter writer,
      Leadership leadership,
      ScheduledExecutorService executor,
      Clock clock,
      Backoff backoff) {
    this.writer = requireNonNull(writer, "writer is null");
    this.leadership = requireNonNull(leadership, "leadership is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.backoff = requireNonNull(backoff, "backoff is null");
  }

  public void submit(EvictDecision decision, PodFacts pod) {
    if (inFlight.add(pod.uid())) {
      executor.execute(() -> attempt(decision, pod, 0));
    }
  }

  /** A retry that never leaves its pod marked in flight when something unexpected breaks. */
  private void attemptOrGiveUp(EvictDecision decision, PodFacts pod, int n) {
    try {
      attempt(decision, pod, n);
    } catch (RuntimeException e) {
      inFlight.remove(pod.uid());
      LOG.warn("evicting {} failed", pod.key(), e);
    }
  }

  private void attempt(EvictDecision decision, PodFacts pod, int n) {
    if (!leadership.isLeader()) {
      inFlight.remove(pod.uid());
      return;
    }
    try {
      writer.patchPodStatus(
          pod.namespace(),
          pod.name(),
          PodConditions.patch(
              PodConditions.DISRUPTION_TARGET,
              "True",
              "PreemptionByScheduler",
              decision.message(),
              clock.instant()));
      writer.deletePod(pod.namespace(), pod.name(), pod.uid());
      inFlight.remove(pod.uid());
    } catch (ApiException e) {
      if (e.getCode() == 404 || n + 1 >= backoff.attempts()) {
        inFlight.remove(pod.uid());
        if (e.getCode() != 404) {
          LOG.warn("evicting {}: HTTP {} {}", pod.key(), e.getCode(), e.getResponseBody());
        }
        return;
      }
      // the retry settles its own eviction, also when it fails unexpectedly
      var unused =
          executor.schedule(
              () -> attemptOrGiveUp(decision, pod, n + 1),
              backoff.after(n).toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }
}
