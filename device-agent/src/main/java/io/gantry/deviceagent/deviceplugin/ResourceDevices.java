package io.gantry.deviceagent.deviceplugin;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * The device lists of the two resources. {@value #WHOLE_GPU}: one device per GPU, its id the GPU's
 * UUID (as NVIDIA's plugin). {@value #GPU_SHARE}: {@code slotsPerGpu} slots per GPU, ids {@code
 * <uuid>::<n>} (NVIDIA's replica id form); a fraction pod holds one slot, and which GPU and how
 * much of it the pod gets is the scheduler's decision in the pod's allocation annotation, not the
 * slot the kubelet picked. Slots share their GPU's health.
 */
public final class ResourceDevices {
  /** Whole GPUs. */
  public static final String WHOLE_GPU = "nvidia.com/gpu";

  /**
   * Shared-GPU slots (the extender's resource; the admission webhook adds one to fraction pods).
   */
  public static final String GPU_SHARE = "gantry.io/gpu-share";

  /** Between a GPU's UUID and a slot number in a slot id. */
  static final String SLOT_SEPARATOR = "::";

  private ResourceDevices() {}

  static ImmutableList<PluginDevice> wholeGpus(List<TrackedGpu> gpus) {
    return gpus.stream()
        .map(g -> new PluginDevice(g.uuid(), g.healthy(), g.numaNode()))
        .collect(ImmutableList.toImmutableList());
  }

  static ImmutableList<PluginDevice> shareSlots(List<TrackedGpu> gpus, int slotsPerGpu) {
    ImmutableList.Builder<PluginDevice> slots = ImmutableList.builder();
    for (TrackedGpu g : gpus) {
      for (int n = 0; n < slotsPerGpu; n++) {
        slots.add(new PluginDevice(g.uuid() + SLOT_SEPARATOR + n, g.healthy(), g.numaNode()));
      }
    }
    return slots.build();
  }
}
