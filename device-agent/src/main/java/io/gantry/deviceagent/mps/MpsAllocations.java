package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.gpusharing.HostMount;

/**
 * MPS at {@code Allocate}: before an MPS container starts, its GPU's control daemon must run with
 * limits that cover it, and the container's pipe directory (the contract's {@value
 * GpuEnforcement#MPS_PIPE_DIRECTORY}) must be that daemon's, which lives in a directory of its own
 * on the host.
 */
public final class MpsAllocations {
  private final MpsDaemons daemons;

  public MpsAllocations(MpsDaemons daemons) {
    this.daemons = requireNonNull(daemons, "daemons is null");
  }

  /**
   * For an MPS allocation, starts (or raises the limits of) its GPU's daemon and mounts that
   * daemon's pipe directory at the contract's path; other allocations pass unchanged.
   *
   * @throws MpsException when the allocation spans several GPUs (one daemon serves one GPU, and a
   *     container reaches one daemon through its one pipe directory), or the daemon cannot be
   *     started or configured
   */
  public GpuEnforcement prepare(GpuAllocation resolved, GpuEnforcement enforcement)
      throws MpsException {
    if (resolved.computeMode() != ComputeMode.MPS) {
      return enforcement;
    }
    if (resolved.devices().size() != 1) {
      throw new MpsException(
          "an MPS allocation over "
              + resolved.devices().size()
              + " GPUs cannot be served: each GPU has its own MPS control daemon, and a container"
              + " reaches one daemon through its pipe directory");
    }
    AssignedGpu device = resolved.devices().get(0);
    daemons.ensure(device.uuid(), MpsPods.limits(resolved, device));
    ImmutableList.Builder<HostMount> mounts = ImmutableList.builder();
    for (HostMount mount : enforcement.mounts()) {
      mounts.add(
          mount.containerPath().equals(GpuEnforcement.MPS_PIPE_DIRECTORY)
              ? new HostMount(daemons.pipeDirectory(device.uuid()), mount.containerPath())
              : mount);
    }
    return new GpuEnforcement(enforcement.env(), mounts.build());
  }
}
