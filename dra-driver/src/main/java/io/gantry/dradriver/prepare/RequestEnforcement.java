package io.gantry.dradriver.prepare;

import com.google.common.collect.ImmutableList;
import io.gantry.dradriver.cdi.CdiSpec;
import io.gantry.dradriver.devices.SliceDevice;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.List;
import java.util.Optional;

/**
 * The container edits of one claim request's devices: the {@code gpu-sharing} contract's {@link
 * GpuAllocation#enforcement} (devices by UUID in {@code NVIDIA_VISIBLE_DEVICES}; for shared devices
 * the memory limit, and for MPS the thread percentage, pinned memory limits and the pipe
 * directory), as CDI environment entries and bind mounts. Every device of the request carries the
 * same edits, so a container gets the request's whole set whichever of its devices it names first.
 */
final class RequestEnforcement {
  private static final ImmutableList<String> BIND_OPTIONS = ImmutableList.of("rw", "rbind");

  private RequestEnforcement() {}

  static CdiSpec.ContainerEdits edits(
      String node, List<SliceDevice> devices, Optional<SharingConfig> sharing, String prefix)
      throws ClaimException {
    List<AssignedGpu> assigned =
        devices.stream().map(d -> new AssignedGpu(d.index(), d.uuid(), d.memoryMib())).toList();
    GpuAllocation allocation;
    if (sharing.isEmpty()) {
      allocation = GpuAllocation.whole(node, devices.size());
    } else {
      long smallestMib = devices.stream().mapToLong(SliceDevice::memoryMib).min().orElseThrow();
      GpuSharingRequest request = sharing.get().request(devices.size());
      GpuAmount portion = request.portionOn(smallestMib);
      if (!request.fitsDeviceOn(smallestMib)) {
        throw new ClaimException(
            prefix
                + "the sharing configuration asks for memoryMiB "
                + request.memoryMib().getAsLong()
                + ", more than the "
                + smallestMib
                + " MiB device");
      }
      if (!portion.isPositive()) {
        throw new ClaimException(
            prefix
                + "the sharing configuration gives less than 0.01 of a "
                + smallestMib
                + " MiB device");
      }
      allocation =
          GpuAllocation.shared(
              node,
              portion,
              sharing.get().computeMode(),
              devices.stream().map(SliceDevice::name).toList());
    }
    GpuEnforcement enforcement = allocation.withDevices(assigned).enforcement(DeviceNaming.UUID);
    ImmutableList.Builder<String> env = ImmutableList.builder();
    enforcement.env().forEach((name, value) -> env.add(name + "=" + value));
    ImmutableList.Builder<CdiSpec.Mount> mounts = ImmutableList.builder();
    enforcement
        .mounts()
        .forEach(m -> mounts.add(new CdiSpec.Mount(m.hostPath(), m.containerPath(), BIND_OPTIONS)));
    return new CdiSpec.ContainerEdits(env.build(), mounts.build());
  }
}
