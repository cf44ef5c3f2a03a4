package io.gantry.deviceagent.enforcement;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodAllocation;
import io.gantry.deviceagent.kube.PodEnforcer;
import io.gantry.deviceagent.kube.PodRef;
import io.gantry.deviceagent.metrics.OverGrantMetrics;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.PortionMemory;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementAction;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.SharingMechanism;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The usage watch of shared GPUs: a pod whose processes use more memory on a GPU than its grant
 * (the contract's {@link PortionMemory} of its portion of that GPU) gets a Warning event {@value
 * #REASON} and, when configured, is evicted. Only pods with a resolved shared allocation have a
 * grant; whole GPUs are the pod's to fill. A pod is warned once per GPU while it stays over; once
 * it is back under, a new excess is warned again. The listener hears each warning ({@code
 * LIMIT_EXCEEDED}) and eviction ({@code CONTAINER_KILLED}) once the API server took it; the
 * mechanism is MPS for MPS pods and HAMi-core for time-sliced ones (the contract's {@code
 * CUDA_DEVICE_MEMORY_LIMIT} is HAMi-core's limit). The container name stays empty: usage is read
 * per pod. Each round's use and grant per pod and GPU, and each warning and eviction, go to the
 * metrics.
 */
public final class OverGrantWatch {
  private static final Logger log = LoggerFactory.getLogger(OverGrantWatch.class);

  /** The event reason. */
  public static final String REASON = "GpuMemoryOverGrant";

  private record Grant(PodRef pod, String gpuUuid, long memoryMib, SharingMechanism mechanism) {}

  private final GpuUsageReader usage;
  private final NodePods pods;
  private final PodEnforcer enforcer;
  private final boolean evict;
  private final EnforcementListener listener;
  private final OverGrantMetrics metrics;
  private final Set<String> warned = new HashSet<>();

  public OverGrantWatch(
      GpuUsageReader usage,
      NodePods pods,
      PodEnforcer enforcer,
      boolean evict,
      EnforcementListener listener,
      OverGrantMetrics metrics) {
    this.usage = requireNonNull(usage, "usage is null");
    this.pods = requireNonNull(pods, "pods is null");
    this.enforcer = requireNonNull(enforcer, "enforcer is null");
    this.evict = evict;
    this.listener = requireNonNull(listener, "listener is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
  }

  /**
   * Compares usage with grants once and acts on every pod over its grant.
   *
   * @throws NvidiaSmiException when the usage cannot be read
   * @throws ApiException when the pods cannot be listed
   */
  public synchronized void runOnce() throws NvidiaSmiException, ApiException {
    Map<String, Grant> grants = grants();
    Set<String> over = new HashSet<>();
    List<PodGpuUsage> used = usage.read();
    metrics.round(memory(grants, used));
    for (PodGpuUsage u : used) {
      String key = u.podUid() + "/" + u.gpuUuid();
      Grant grant = grants.get(key);
      if (grant == null || u.usedMemoryMib() <= grant.memoryMib()) {
        continue;
      }
      over.add(key);
      if (!warned.add(key)) {
        continue;
      }
      String message =
          "uses "
              + u.usedMemoryMib()
              + " MiB of GPU "
              + u.gpuUuid()
              + " memory, over its grant of "
              + grant.memoryMib()
              + " MiB";
      try {
        enforcer.warn(grant.pod(), REASON, message);
        listener.enforced(
            event(grant, u, EnforcementAction.ENFORCEMENT_ACTION_LIMIT_EXCEEDED, message));
        metrics.warned();
        if (evict) {
          enforcer.evict(grant.pod());
          metrics.evicted();
          listener.enforced(
              event(
                  grant,
                  u,
                  EnforcementAction.ENFORCEMENT_ACTION_CONTAINER_KILLED,
                  "was evicted for using more GPU memory than its grant"));
        }
      } catch (ApiException e) {
        warned.remove(key);
        log.warn(
            "acting on {}/{} over its GPU grant failed (HTTP {}), retried next round",
            grant.pod().namespace(),
            grant.pod().name(),
            e.getCode());
      }
    }
    warned.retainAll(over);
  }

  /** Grant per {@code <pod uid>/<gpu uuid>} of every live pod with a resolved shared allocation. */
  private Map<String, Grant> grants() throws ApiException {
    Map<String, Grant> grants = new TreeMap<>();
    for (V1Pod pod : pods.live()) {
      Optional<PodAllocation> found = PodAllocation.of(pod);
      if (found.isEmpty()
          || !found.get().allocation().isShared()
          || !found.get().allocation().isResolved()) {
        continue;
      }
      GpuAllocation allocation = found.get().allocation();
      for (AssignedGpu gpu : allocation.devices()) {
        grants.put(
            found.get().pod().uid() + "/" + gpu.uuid(),
            new Grant(
                found.get().pod(),
                gpu.uuid(),
                PortionMemory.memoryMib(allocation.portion(), gpu.memoryMib()),
                allocation.computeMode() == ComputeMode.MPS
                    ? SharingMechanism.SHARING_MECHANISM_MPS
                    : SharingMechanism.SHARING_MECHANISM_HAMI_CORE));
      }
    }
    return grants;
  }

  /** Per grant (in key order), the memory its pod uses on its GPU: 0 without a process there. */
  private static List<OverGrantMetrics.PodGpuMemory> memory(
      Map<String, Grant> grants, List<PodGpuUsage> used) {
    Map<String, Long> usedMib = new TreeMap<>();
    for (PodGpuUsage u : used) {
      usedMib.merge(u.podUid() + "/" + u.gpuUuid(), u.usedMemoryMib(), Long::sum);
    }
    List<OverGrantMetrics.PodGpuMemory> out = new ArrayList<>();
    grants.forEach(
        (key, grant) ->
            out.add(
                new OverGrantMetrics.PodGpuMemory(
                    grant.pod().namespace(),
                    grant.pod().name(),
                    grant.gpuUuid(),
                    usedMib.getOrDefault(key, 0L),
                    grant.memoryMib())));
    return out;
  }

  private static EnforcementEvent event(
      Grant grant, PodGpuUsage used, EnforcementAction action, String message) {
    return EnforcementEvent.newBuilder()
        .setPodNamespace(grant.pod().namespace())
        .setPodName(grant.pod().name())
        .setPodUid(grant.pod().uid())
        .setGpuUuid(used.gpuUuid())
        .setMechanism(grant.mechanism())
        .setAction(action)
        .setMemoryLimitMib(grant.memoryMib())
        .setMemoryUsedMib(used.usedMemoryMib())
        .setMessage("pod " + grant.pod().namespace() + "/" + grant.pod().name() + " " + message)
        .build();
  }
}
