package io.gantry.deviceagent.metrics;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.nvml.CriticalXids;
import io.gantry.nodecommon.nvml.XidError;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node's GPUs as the agent sees them: {@code gantry_device_agent_gpus} (GPUs the latest
 * discovery listed, by model), {@code gantry_device_agent_gpu_healthy} (1 or 0 per GPU, the health
 * the kubelet hears: a critical XID or a failed discovery makes it 0) and {@code
 * gantry_device_agent_xid_errors_total} (every XID the driver reported, by GPU and code). A GPU
 * discovery no longer lists keeps its health row (it stays unhealthy for the kubelet); a model no
 * GPU has any more loses its row ({@link GaugeRows}). Thread-safe.
 */
public final class GpuMetrics {
  /** One GPU as the device lists carry it: the health gauge's row. */
  public record GpuHealthRow(String uuid, int index, boolean healthy) {
    public GpuHealthRow {
      requireNonNull(uuid, "uuid is null");
    }
  }

  private final MeterRegistry registry;
  private final Tags node;
  private final GaugeRows byModel;
  private final GaugeRows healthy;

  GpuMetrics(MeterRegistry registry, Tags node) {
    this.registry = requireNonNull(registry, "registry is null");
    this.node = requireNonNull(node, "node is null");
    this.byModel =
        DeviceAgentMetrics.gaugeRows(
            registry, node, "gpus", Optional.empty(), "GPUs the latest discovery listed, by model");
    this.healthy =
        DeviceAgentMetrics.gaugeRows(
            registry,
            node,
            "gpu.healthy",
            Optional.empty(),
            "1 while the kubelet hears the GPU healthy, else 0");
  }

  /** After a discovery that listed {@code inventory}. */
  public void discovered(GpuInventory inventory) {
    Map<Tags, Integer> models = new HashMap<>();
    for (GpuDevice d : inventory.devices()) {
      models.merge(Tags.of("model", d.productName()), 1, Integer::sum);
    }
    byModel.set(models);
  }

  /** The GPUs the device lists now hold, with the health sent to the kubelet. */
  public void health(List<GpuHealthRow> gpus) {
    Map<Tags, Integer> values = new HashMap<>();
    for (GpuHealthRow gpu : gpus) {
      values.put(
          Tags.of("gpu_uuid", gpu.uuid(), "gpu_index", Integer.toString(gpu.index())),
          gpu.healthy() ? 1 : 0);
    }
    healthy.set(values);
  }

  /** An XID the driver reported, critical or not. */
  public void xid(XidError error) {
    Counter.builder(DeviceAgentMetrics.PREFIX + "xid.errors")
        .description("XID errors the driver reported; critical ones make the GPU unhealthy")
        .tags(node)
        .tag("gpu_uuid", error.gpuUuid())
        .tag("gpu_index", Integer.toString(error.gpuIndex()))
        .tag("xid", Long.toString(error.xid()))
        .tag("critical", Boolean.toString(CriticalXids.isCritical(error.xid())))
        .register(registry)
        .increment();
  }
}
