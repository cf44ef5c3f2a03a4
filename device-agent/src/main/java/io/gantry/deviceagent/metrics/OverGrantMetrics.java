package io.gantry.deviceagent.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The usage watch of shared GPUs: per pod and GPU with a grant, {@code
 * gantry_device_agent_pod_gpu_memory_used_bytes} against {@code
 * gantry_device_agent_pod_gpu_memory_granted_bytes} as the latest round read them (a pod gone loses
 * its rows), and {@code gantry_device_agent_over_grant_actions_total} by action ({@code warned},
 * {@code evicted}). Pods are labelled {@code pod_namespace} and {@code pod_name}, not {@code
 * namespace} and {@code pod}, which Prometheus gives the agent's own pod when it scrapes it.
 * Thread-safe.
 */
public final class OverGrantMetrics {
  private static final long BYTES_PER_MIB = 1024L * 1024L;

  /** One pod's use of one shared GPU against its grant. */
  public record PodGpuMemory(
      String podNamespace, String podName, String gpuUuid, long usedMib, long grantedMib) {
    public PodGpuMemory {
      requireNonNull(podNamespace, "podNamespace is null");
      requireNonNull(podName, "podName is null");
      requireNonNull(gpuUuid, "gpuUuid is null");
    }

    Tags tags() {
      return Tags.of("pod_namespace", podNamespace, "pod_name", podName, "gpu_uuid", gpuUuid);
    }
  }

  private final GaugeRows used;
  private final GaugeRows granted;
  private final Counter warned;
  private final Counter evicted;

  OverGrantMetrics(MeterRegistry registry, Tags node) {
    this.used =
        DeviceAgentMetrics.gaugeRows(
            registry,
            node,
            "pod.gpu.memory.used",
            Optional.of("bytes"),
            "GPU memory a pod's processes use on a shared GPU");
    this.granted =
        DeviceAgentMetrics.gaugeRows(
            registry,
            node,
            "pod.gpu.memory.granted",
            Optional.of("bytes"),
            "GPU memory a pod's portion of a shared GPU grants it");
    this.warned = action(registry, node, "warned");
    this.evicted = action(registry, node, "evicted");
  }

  private static Counter action(MeterRegistry registry, Tags node, String action) {
    return Counter.builder(DeviceAgentMetrics.PREFIX + "over.grant.actions")
        .description("Pods found over their GPU memory grant: warned (an event), evicted")
        .tags(node)
        .tag("action", action)
        .register(registry);
  }

  /** The pods with grants after one round of the watch. */
  public synchronized void round(List<PodGpuMemory> pods) {
    Map<Tags, Long> usedBytes = new HashMap<>();
    Map<Tags, Long> grantedBytes = new HashMap<>();
    for (PodGpuMemory p : pods) {
      usedBytes.put(p.tags(), p.usedMib() * BYTES_PER_MIB);
      grantedBytes.put(p.tags(), p.grantedMib() * BYTES_PER_MIB);
    }
    used.set(usedBytes);
    granted.set(grantedBytes);
  }

  /** A pod over its grant was warned (the API server took the event). */
  public void warned() {
    warned.increment();
  }

  /** A pod over its grant was evicted. */
  public void evicted() {
    evicted.increment();
  }
}
