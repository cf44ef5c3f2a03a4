package io.gantry.dradriver.devices;

import com.google.common.collect.ImmutableList;
import io.gantry.dradriver.DriverNames;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import java.util.Locale;
import java.util.Optional;

/**
 * The devices a node's inventory offers through DRA: every healthy GPU that is not in MIG mode (a
 * MIG-enabled GPU can only be used through its MIG devices, which this driver does not publish; an
 * unhealthy GPU must not be allocated), in index order.
 */
public final class SliceDevices {
  private SliceDevices() {}

  public static ImmutableList<SliceDevice> of(GpuInventory inventory) {
    ImmutableList.Builder<SliceDevice> out = ImmutableList.builder();
    for (GpuDevice gpu : inventory.devices()) {
      if (gpu.health().status() == HealthStatus.HEALTHY && gpu.migMode() != MigMode.ENABLED) {
        out.add(
            new SliceDevice(
                DriverNames.deviceName(gpu.index()),
                gpu.index(),
                gpu.uuid(),
                gpu.productName(),
                GpuArchitecture.of(gpu.productName()),
                domainOf(inventory, gpu.index()),
                extendedBdf(gpu.pciBusId()),
                gpu.memoryMib()));
      }
    }
    return out.build();
  }

  private static Optional<String> domainOf(GpuInventory inventory, int index) {
    return inventory.nvlinkDomains().stream()
        .filter(d -> d.gpuIndices().contains(index))
        .map(NvlinkDomain::id)
        .findFirst();
  }

  /**
   * nvidia-smi writes an 8-digit PCI domain ({@code 00000000:53:00.0}); Kubernetes' {@code
   * resource.kubernetes.io/pciBusID} is the extended BDF with a 4-digit domain ({@code
   * 0000:53:00.0}), lower case.
   */
  static String extendedBdf(String pciBusId) {
    String id = pciBusId.toLowerCase(Locale.ROOT);
    int colon = id.indexOf(':');
    if (colon > 4 && id.substring(0, colon - 4).chars().allMatch(c -> c == '0')) {
      return id.substring(colon - 4);
    }
    return id;
  }
}
