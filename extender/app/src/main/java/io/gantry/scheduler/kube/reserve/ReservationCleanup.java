package io.gantry.scheduler.kube.reserve;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.GpuAllocation;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.kube.write.ObjectRef;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAI's reservation cleanup (kai-reference §7), from the pod cache each cycle: a reservation pod
 * whose group no Pending or Running fraction pod and no bind in flight references is deleted; a
 * Running fraction pod that Gantry bound to a reserved GPU (it carries {@value
 * SharedGpuPods#GPU_GROUP_LABEL}) whose reservation pod is gone gets a warning event and is
 * deleted, as KAI does: the device it runs on may be handed to another pod now.
 */
public final class ReservationCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(ReservationCleanup.class);

  /** The warning on a fraction pod deleted because its reservation pod went. */
  public static final String RESERVATION_LOST = "GpuReservationLost";

  private final KubeWriter writer;
  private final EventRecorder events;
  private final String namespace;
  private final Supplier<Set<String>> groupsInFlight;

  /**
   * @param groupsInFlight the GPU groups of the binds in flight, as {@code node/group}
   */
  public ReservationCleanup(
      KubeWriter writer,
      EventRecorder events,
      String namespace,
      Supplier<Set<String>> groupsInFlight) {
    this.writer = requireNonNull(writer, "writer is null");
    this.events = requireNonNull(events, "events is null");
    this.namespace = requireNonNull(namespace, "namespace is null");
    this.groupsInFlight = requireNonNull(groupsInFlight, "groupsInFlight is null");
  }

  /** One pass over the pod cache's content: the reservation pods and the pods sharing GPUs. */
  public void run(List<V1Pod> cached) {
    List<PodFacts> concerned = new ArrayList<>();
    for (V1Pod pod : cached) {
      Map<String, String> annotations = pod.getMetadata().getAnnotations();
      if (namespace.equals(pod.getMetadata().getNamespace())
          || (annotations != null && annotations.containsKey(GpuAllocation.ANNOTATION))) {
        concerned.add(PodFacts.of(pod));
      }
    }
    clean(concerned);
  }

  private void clean(List<PodFacts> pods) {
    Set<String> referenced = new TreeSet<>(groupsInFlight.get());
    Set<String> reserved = new TreeSet<>();
    for (PodFacts p : pods) {
      if (isReservation(p)) {
        if (p.deletionTimestamp().isEmpty() && p.nodeName().isPresent()) {
          reserved.add(p.nodeName().get() + "/" + p.labels().get(SharedGpuPods.GPU_GROUP_LABEL));
        }
      } else if (live(p) && p.allocation().map(GpuAllocation::isShared).orElse(false)) {
        GpuAllocation a = p.allocation().get();
        a.gpuGroups().forEach(g -> referenced.add(a.node() + "/" + g));
      }
    }
    for (PodFacts p : pods) {
      try {
        if (isReservation(p) && p.deletionTimestamp().isEmpty()) {
          String group =
              p.nodeName().orElse("") + "/" + p.labels().get(SharedGpuPods.GPU_GROUP_LABEL);
          if (!referenced.contains(group)) {
            LOG.info(
                "deleting reservation pod {}: no fraction pod uses GPU group {}", p.key(), group);
            writer.deletePod(p.namespace(), p.name(), p.uid());
          }
        } else if (lostReservation(p, reserved)) {
          String message =
              "pod "
                  + p.key()
                  + " shares GPU group "
                  + String.join(", ", p.allocation().get().gpuGroups())
                  + " on node "
                  + p.allocation().get().node()
                  + ", whose reservation pod is gone; deleting it, as its GPU is no longer held"
                  + " for it";
          LOG.warn(message);
          events.warning(ObjectRef.pod(p), RESERVATION_LOST, message);
          writer.deletePod(p.namespace(), p.name(), p.uid());
        }
      } catch (ApiException e) {
        LOG.warn("cleanup of {}: HTTP {} {}", p.key(), e.getCode(), e.getMessage());
      }
    }
  }

  private boolean isReservation(PodFacts p) {
    return p.namespace().equals(namespace) && SharedGpuPods.isReservation(p.labels());
  }

  private static boolean live(PodFacts p) {
    return p.deletionTimestamp().isEmpty()
        && (p.phase().equals("Pending") || p.phase().equals("Running"));
  }

  private static boolean lostReservation(PodFacts p, Set<String> reserved) {
    if (!p.phase().equals("Running")
        || p.deletionTimestamp().isPresent()
        || p.allocation().isEmpty()
        || !p.allocation().get().isShared()
        || !boundToReservation(p)) {
      return false;
    }
    GpuAllocation a = p.allocation().get();
    return a.gpuGroups().stream().anyMatch(g -> !reserved.contains(a.node() + "/" + g));
  }

  private static boolean boundToReservation(PodFacts p) {
    return p.labels().keySet().stream()
        .anyMatch(
            k ->
                k.equals(SharedGpuPods.GPU_GROUP_LABEL)
                    || k.startsWith(SharedGpuPods.GPU_GROUP_LABEL + "/"));
  }
}
