package io.gantry.deviceagent.deviceplugin;

import com.google.common.collect.ImmutableSet;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateResponse;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code Allocate} for whole GPUs: the kubelet picked the GPUs (the device ids are their UUIDs),
 * and the container sees exactly those through {@code NVIDIA_VISIBLE_DEVICES}, the variable the
 * NVIDIA container runtime reads (protocols.md §6.4), by UUID so the order of the node's GPUs does
 * not matter. An id this node does not have is refused.
 */
final class WholeGpuAllocator implements ContainerAllocator {
  static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";

  private final Supplier<ImmutableSet<String>> knownUuids;

  /** {@code knownUuids} gives the GPUs this node has now. */
  WholeGpuAllocator(Supplier<ImmutableSet<String>> knownUuids) {
    this.knownUuids = knownUuids;
  }

  @Override
  public ContainerAllocateResponse allocate(ContainerAllocateRequest request)
      throws AllocationException {
    List<String> ids = request.getDevicesIdsList();
    if (ids.isEmpty()) {
      throw new AllocationException("no devices requested");
    }
    ImmutableSet<String> known = knownUuids.get();
    for (String id : ids) {
      if (!known.contains(id)) {
        throw new AllocationException("unknown device " + id + ": this node has no such GPU");
      }
    }
    return ContainerAllocateResponse.newBuilder()
        .putEnvs(VISIBLE_DEVICES, String.join(",", ids))
        .build();
  }
}
