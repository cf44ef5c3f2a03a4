package io.gantry.scheduler.kube.reserve;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.util.concurrent.Striped;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * The binder's reservation of one GPU group on a node (kai-reference §7), one step per call, under
 * a per-group lock: find the group's reservation pod (asking the API server, not a cache, so a
 * restarted scheduler finds the pod its predecessor made), or create it; then report its UUID, that
 * it is still waiting, or that it failed. A reservation pod that ended, or that has not reported
 * its UUID within the timeout since it was created, is deleted and the reservation failed. While
 * scaling pods are pending no reservation pod is created (KAI's rule, §1.8): the autoscaler is
 * about to add the capacity they stand for. Thread-safe.
 */
public final class GpuReserver {
  private final KubeWriter writer;
  private final GpuSharingSpec spec;
  private final Clock clock;
  private final Striped<Lock> locks = Striped.lock(64);

  public GpuReserver(KubeWriter writer, GpuSharingSpec spec, Clock clock) {
    this.writer = requireNonNull(writer, "writer is null");
    this.spec = requireNonNull(spec, "spec is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public GpuSharingSpec spec() {
    return spec;
  }

  /**
   * One step of reserving {@code group} on {@code node} for a fraction pod with {@code
   * tolerations}.
   *
   * @throws ApiException when the API server could not be asked (the caller retries)
   */
  public ReservationStep reserve(String node, String group, List<V1Toleration> tolerations)
      throws ApiException {
    Lock lock = locks.get(node + "/" + group);
    lock.lock();
    try {
      String ns = spec.reservationNamespace();
      for (JsonNode pod :
          writer.listPods(ns, SharedGpuPods.GPU_GROUP_LABEL + "=" + group).path("items")) {
        if (!node.equals(pod.at("/spec/nodeName").asText())
            || !pod.at("/metadata/deletionTimestamp").asText("").isEmpty()) {
          continue;
        }
        return step(node, group, pod);
      }
      if (spec.scalingPods() && ScalingPods.anyPending(writer, spec)) {
        return new ReservationStep.Waiting(
            "scaling pods in namespace "
                + spec.scalingNamespace()
                + " are pending; no reservation pod is created until the autoscaler has acted");
      }
      writer.createPod(ReservationPods.pod(spec, node, group, tolerations));
      return new ReservationStep.Waiting(waitingFor(node, group));
    } finally {
      lock.unlock();
    }
  }

  private ReservationStep step(String node, String group, JsonNode pod) throws ApiException {
    String name = pod.at("/metadata/name").asText();
    String what =
        "reservation pod "
            + spec.reservationNamespace()
            + "/"
            + name
            + " for GPU group "
            + group
            + " on node "
            + node;
    String uuid = pod.at("/metadata/annotations").path(SharedGpuPods.UUID_ANNOTATION).asText("");
    String phase = pod.at("/status/phase").asText("");
    if (phase.equals("Failed") || phase.equals("Succeeded")) {
      delete(pod);
      return new ReservationStep.Failed(what + " ended (phase " + phase + ")");
    }
    if (!uuid.isEmpty()) {
      return new ReservationStep.Reserved(uuid);
    }
    Instant created = created(pod);
    if (!created.plus(spec.reservationTimeout()).isAfter(clock.instant())) {
      delete(pod);
      return new ReservationStep.Failed(
          what
              + " did not report its GPU (annotation "
              + SharedGpuPods.UUID_ANNOTATION
              + ") within "
              + seconds(spec.reservationTimeout()));
    }
    return new ReservationStep.Waiting(waitingFor(node, group));
  }

  private String waitingFor(String node, String group) {
    return "waiting for reservation pod "
        + spec.reservationNamespace()
        + "/"
        + ReservationPods.name(node, group)
        + " to report its GPU";
  }

  private void delete(JsonNode pod) throws ApiException {
    writer.deletePod(
        pod.at("/metadata/namespace").asText(),
        pod.at("/metadata/name").asText(),
        pod.at("/metadata/uid").asText());
  }

  private Instant created(JsonNode pod) {
    try {
      return Instant.parse(pod.at("/metadata/creationTimestamp").asText());
    } catch (DateTimeParseException e) {
      // an object without its creation time is as old as it gets: now
      return clock.instant();
    }
  }

  static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
