package io.gantry.deviceagent.reserve;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.inventory.DiscoveryException;
import java.util.Optional;

/**
 * Which GPU the kubelet gave a reservation pod: the one {@code NVIDIA_VISIBLE_DEVICES} names (a
 * {@code GPU-…} UUID, or a CDI name ending in one, as NVIDIA's device plugin sets it), else the
 * single GPU that discovery (NVML, else {@code nvidia-smi}) sees in the container.
 */
public final class ReservedGpu {
  static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
  private static final String UUID_PREFIX = "GPU-";

  private ReservedGpu() {}

  /**
   * The UUID from {@code visibleDevices} when it names exactly one GPU by UUID; empty otherwise
   * ({@code all}, {@code void}, indices, several devices).
   */
  public static Optional<String> fromVisibleDevices(String visibleDevices) {
    if (visibleDevices == null || visibleDevices.isBlank() || visibleDevices.contains(",")) {
      return Optional.empty();
    }
    String value = visibleDevices.trim();
    // a CDI name: k8s.device-plugin.nvidia.com/gpu=GPU-…
    String device = value.substring(value.lastIndexOf('=') + 1);
    return device.startsWith(UUID_PREFIX) ? Optional.of(device) : Optional.empty();
  }

  /**
   * The reserved GPU's UUID.
   *
   * @param discovery what sees the container's GPUs, asked only when the environment names none
   * @throws DiscoveryException when discovery fails or does not see exactly one GPU
   */
  public static String uuid(String visibleDevices, InventorySource discovery)
      throws DiscoveryException {
    Optional<String> named = fromVisibleDevices(visibleDevices);
    if (named.isPresent()) {
      return named.get();
    }
    GpuInventory inventory = discovery.discover();
    if (inventory.devices().size() != 1) {
      throw new NotOneGpu(
          "a reservation pod must see exactly one GPU, this one sees "
              + inventory.devices().size()
              + (visibleDevices == null
                  ? " (" + VISIBLE_DEVICES + " is not set)"
                  : " (" + VISIBLE_DEVICES + "=" + visibleDevices + ")"));
    }
    GpuDevice only = inventory.devices().get(0);
    return only.uuid();
  }

  /** Discovery worked but saw no single GPU: the pod did not get exactly one. */
  static final class NotOneGpu extends DiscoveryException {
    private static final long serialVersionUID = 1L;

    NotOneGpu(String message) {
      super(message);
    }

    @Override
    public boolean unreadable() {
      return false;
    }
  }
}
