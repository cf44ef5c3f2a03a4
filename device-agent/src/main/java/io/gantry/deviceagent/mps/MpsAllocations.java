package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.deviceagent.enforcement.EnforcementListener;
import io.gantry.deviceagent.kube.PodRef;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.gpusharing.HostMount;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementAction;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.SharingMechanism;

/**
 * MPS at {@code Allocate}: before an MPS container starts, its GPU's control daemon must run with
 * limits that cover it, and the container's pipe directory (the contract's {@value
 * GpuEnforcement#MPS_PIPE_DIRECTORY}) must be that daemon's, which lives in a directory of its own
 * on the host. The listener hears each pod the daemon now covers ({@code LIMIT_APPLIED}, with the
 * pod's own pinned memory limit).
 */
public final class MpsAllocations {
  private final MpsDaemons daemons;
  private final EnforcementListener listener;

  public MpsAllocations(MpsDaemons daemons, EnforcementListener listener) {
    this.daemons = requireNonNull(daemons, "daemons is null");
    this.listener = requireNonNull(listener, "listener is null");
  }

  /**
   * For an MPS allocation, starts (or raises the limits of) its GPU's daemon and mounts that
   * daemon's pipe directory at the contract's path; other allocations pass unchanged.
   *
   * @throws MpsException when the allocation spans several GPUs (one daemon serves one GPU, and a
   *     container reaches one daemon through its one pipe directory), or the daemon cannot be
   *     started or configured
   */
  public GpuEnforcement prepare(PodRef pod, GpuAllocation resolved, GpuEnforcement enforcement)
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
    MpsLimits limits = MpsPods.limits(resolved, device);
    daemons.ensure(device.uuid(), limits);
    listener.enforced(
        EnforcementEvent.newBuilder()
            .setPodNamespace(pod.namespace())
            .setPodName(pod.name())
            .setPodUid(pod.uid())
            .setGpuUuid(device.uuid())
            .setMechanism(SharingMechanism.SHARING_MECHANISM_MPS)
            .setAction(EnforcementAction.ENFORCEMENT_ACTION_LIMIT_APPLIED)
            .setMemoryLimitMib(limits.pinnedMemoryMib())
            .setMessage(
                "pod "
                    + pod.namespace()
                    + "/"
                    + pod.name()
                    + " uses the MPS daemon of GPU "
                    + device.uuid()
                    + " with "
                    + limits.activeThreadPercentage()
                    + "% of its SM threads and "
                    + limits.pinnedMemoryMib()
                    + " MiB of pinned memory")
            .build());
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
