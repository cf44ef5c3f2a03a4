package io.gantry.scheduler.kube.reserve;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a bind does for a fraction pod in reservation-pods mode before the binding itself: reserve
 * each of its GPU groups ({@link GpuReserver}); once every group has its UUID, write the pod's
 * environment ConfigMap ({@link GpuEnvironmentMap}) and then, in one patch, its {@code
 * gantry.io/gpu-allocation} resolved to those devices and KAI's {@value
 * SharedGpuPods#GPU_GROUP_LABEL} label. Until then nothing is written on the pod, so a bind that
 * waits, fails or is dropped by a restart leaves nothing half-bound.
 */
public final class SharedGpuBind {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Where a fraction pod's bind stands. */
  public sealed interface Outcome {}

  /** The pod carries its resolved allocation; bind it. */
  public record Ready(GpuAllocation resolved) implements Outcome {}

  /** Not yet (see {@code why}); ask again. */
  public record Waiting(String why) implements Outcome {}

  /** The reservation failed ({@code cause}); the pod stays unbound. */
  public record Failed(String cause) implements Outcome {}

  private final KubeWriter writer;
  private final GpuReserver reserver;
  private final Function<String, V1Node> nodes;

  /**
   * @param nodes the cached Node by name (null when unknown), for the device behind a UUID
   */
  public SharedGpuBind(KubeWriter writer, GpuReserver reserver, Function<String, V1Node> nodes) {
    this.writer = requireNonNull(writer, "writer is null");
    this.reserver = requireNonNull(reserver, "reserver is null");
    this.nodes = requireNonNull(nodes, "nodes is null");
  }

  /** How long a reservation pod may take to report its GPU. */
  public Duration reservationTimeout() {
    return reserver.spec().reservationTimeout();
  }

  /**
   * One step of preparing {@code pod}'s bind with {@code allocation} (shared, unresolved).
   *
   * @return {@link Failed} at once, reserving nothing, for a pod the admission webhook never saw:
   *     without its environment ConfigMap it cannot be confined to the reserved GPU ({@link
   *     SharedGpuPods#noEnvironmentMessage}; the snapshot keeps such pods out of scheduling, this
   *     guards a bind decided before the pod was read)
   * @throws ApiException when the API server could not be asked (the caller retries)
   */
  public Outcome prepare(V1Pod pod, GpuAllocation allocation) throws ApiException {
    Optional<String> prefix = SharedGpuPods.envConfigMapPrefix(pod.getMetadata().getAnnotations());
    if (prefix.isEmpty()) {
      return new Failed(SharedGpuPods.noEnvironmentMessage());
    }
    List<V1Toleration> tolerations =
        pod.getSpec() == null || pod.getSpec().getTolerations() == null
            ? List.of()
            : pod.getSpec().getTolerations();
    List<AssignedGpu> devices = new ArrayList<>();
    for (String group : allocation.gpuGroups()) {
      ReservationStep step = reserver.reserve(allocation.node(), group, tolerations);
      if (step instanceof ReservationStep.Failed f) {
        return new Failed(f.cause());
      }
      if (step instanceof ReservationStep.Waiting w) {
        return new Waiting(w.why());
      }
      String uuid = ((ReservationStep.Reserved) step).uuid();
      try {
        devices.add(
            ReservedDevices.device(nodes.apply(allocation.node()), allocation.node(), uuid));
      } catch (IllegalStateException e) {
        return new Failed(e.getMessage());
      }
    }
    GpuAllocation resolved = allocation.withDevices(devices);
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    writer.writeConfigMap(
        GpuEnvironmentMap.configMap(
            namespace,
            prefix.get(),
            name,
            pod.getMetadata().getUid(),
            resolved.enforcement(DeviceNaming.UUID)));
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    meta.putObject("annotations").put(GpuAllocation.ANNOTATION, GpuAllocationJson.write(resolved));
    ObjectNode labels = meta.putObject("labels");
    if (resolved.gpuGroups().size() == 1) {
      labels.put(SharedGpuPods.GPU_GROUP_LABEL, resolved.gpuGroups().get(0));
    } else {
      // KAI's multi-device form: one label per group
      for (String group : resolved.gpuGroups()) {
        labels.put(SharedGpuPods.GPU_GROUP_LABEL + "/" + group, group);
      }
    }
    writer.patchPod(namespace, name, patch.toString());
    return new Ready(resolved);
  }
}
