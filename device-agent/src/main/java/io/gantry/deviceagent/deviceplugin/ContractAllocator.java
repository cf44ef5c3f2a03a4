package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodAllocation;
import io.gantry.deviceagent.mps.MpsAllocations;
import io.gantry.deviceagent.mps.MpsException;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.gpusharing.HostMount;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.proto.deviceplugin.v1beta1.CDIDevice;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.gantry.proto.deviceplugin.v1beta1.Mount;
import io.kubernetes.client.openapi.ApiException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Allocate} through the {@code gantry.io/gpu-allocation} contract (gpu-sharing's {@link
 * GpuAllocation}): finds the pod being started, resolves its allocation to physical GPUs, writes
 * the resolved allocation back on the pod (so the next pod of a GPU group finds its device, and the
 * pod is not picked again) and answers with the contract's environment, mounts and, with CDI
 * naming, CDI devices.
 *
 * <p>The pod being started is the oldest pending pod bound to this node whose allocation is not
 * resolved yet and which asks for this resource (the kubelet admits one pod at a time and calls
 * {@code Allocate} while it is still pending). Whole GPUs: the kubelet chose the GPUs (the ids are
 * UUIDs), so a pod is only needed to record them; without one the container still gets its GPUs.
 * Shared slots: the slot id says nothing, the pod's groups say which GPU, so a pod must be found.
 *
 * <p>Whole GPUs the scheduler chose ({@link GpuAllocation#chosenDevices}, inside one NVLink domain)
 * reach the container through {@code GetPreferredAllocation}: the kubelet asks which of its
 * available devices to pick, and this answers the starting pod's chosen GPUs when the kubelet has
 * them all. {@code Allocate} then gets exactly those. The kubelet accounts devices by the ids it
 * gave (protocols.md §2.4), so when they differ from the chosen ones (a chosen GPU the kubelet had
 * given to another pod, or a kubelet that does not ask) the kubelet's ids stand: the container gets
 * them and the pod records them, with a warning.
 */
final class ContractAllocator implements ContainerAllocator, DevicePreference {
  private static final Logger log = LoggerFactory.getLogger(ContractAllocator.class);

  private final String resourceName;
  private final boolean shared;
  private final NodePods pods;
  private final CurrentInventory inventory;
  private final DeviceNaming naming;
  private final Optional<MpsAllocations> mps;

  ContractAllocator(
      String resourceName,
      boolean shared,
      NodePods pods,
      CurrentInventory inventory,
      DeviceNaming naming,
      Optional<MpsAllocations> mps) {
    this.resourceName = requireNonNull(resourceName, "resourceName is null");
    this.shared = shared;
    this.pods = requireNonNull(pods, "pods is null");
    this.inventory = requireNonNull(inventory, "inventory is null");
    this.naming = requireNonNull(naming, "naming is null");
    this.mps = requireNonNull(mps, "mps is null");
  }

  /** Whole GPUs: the kubelet picks them. */
  static ContractAllocator wholeGpus(
      NodePods pods, CurrentInventory inventory, DeviceNaming naming) {
    return new ContractAllocator(
        ResourceDevices.WHOLE_GPU, false, pods, inventory, naming, Optional.empty());
  }

  /**
   * Shared slots: the pod's GPU groups pick them; with {@code mps}, MPS pods get their GPU's MPS
   * control daemon.
   */
  static ContractAllocator sharedGpus(
      NodePods pods,
      CurrentInventory inventory,
      DeviceNaming naming,
      Optional<MpsAllocations> mps) {
    return new ContractAllocator(ResourceDevices.GPU_SHARE, true, pods, inventory, naming, mps);
  }

  @Override
  public ContainerAllocateResponse allocate(ContainerAllocateRequest request)
      throws AllocationException {
    List<String> ids = request.getDevicesIdsList();
    if (ids.isEmpty()) {
      throw new AllocationException("no devices requested");
    }
    GpuInventory gpus =
        inventory.get().orElseThrow(() -> new AllocationException("no GPU inventory taken yet"));
    // One Allocate at a time on this node: two pods must not both resolve a new group to one GPU.
    synchronized (pods) {
      ImmutableList<PodAllocation> live = livePods();
      Optional<PodAllocation> starting = starting(live, ids.size());
      GpuAllocation resolved;
      if (shared) {
        PodAllocation pod =
            starting.orElseThrow(
                () ->
                    new AllocationException(
                        "no pending pod on node "
                            + pods.nodeName()
                            + " asks for "
                            + resourceName
                            + " with an unresolved "
                            + GpuAllocation.ANNOTATION));
        List<GpuAllocation> others =
            live.stream().map(PodAllocation::allocation).filter(GpuAllocation::isResolved).toList();
        resolved =
            pod.allocation()
                .withDevices(AllocationResolver.forGroups(pod.allocation(), others, gpus));
      } else {
        ImmutableList<AssignedGpu> given = AllocationResolver.byUuid(gpus, ids);
        GpuAllocation allocation =
            starting
                .map(PodAllocation::allocation)
                .orElse(GpuAllocation.whole(pods.nodeName(), ids.size()));
        List<Integer> givenIndices = given.stream().map(AssignedGpu::index).sorted().toList();
        if (!allocation.chosenDevices().isEmpty()
            && !allocation.chosenDevices().equals(givenIndices)) {
          log.warn(
              "pod {}/{}: the kubelet gave GPUs {}, the scheduler chose {}; the kubelet's stand",
              starting.get().pod().namespace(),
              starting.get().pod().name(),
              givenIndices,
              allocation.chosenDevices());
        }
        resolved = allocation.withDevices(given);
      }
      // the MPS daemon first: a pod whose daemon cannot start stays unresolved, to be retried
      GpuEnforcement enforcement = enforcement(resolved, starting);
      if (starting.isPresent()) {
        try {
          pods.writeAllocation(starting.get().pod(), resolved);
        } catch (ApiException e) {
          throw new AllocationException(
              "cannot record the GPUs of pod "
                  + starting.get().pod().namespace()
                  + "/"
                  + starting.get().pod().name()
                  + ": HTTP "
                  + e.getCode());
        }
        log.info(
            "pod {}/{} gets {}",
            starting.get().pod().namespace(),
            starting.get().pod().name(),
            resolved.devices());
      }
      return response(enforcement);
    }
  }

  /**
   * The starting pod's chosen GPUs, by UUID, when the kubelet has them all available and they hold
   * what it must include; otherwise empty, which leaves the pick to the kubelet.
   */
  @Override
  public List<String> preferred(List<String> available, List<String> mustInclude, int size) {
    Optional<GpuInventory> gpus = inventory.get();
    if (shared || gpus.isEmpty()) {
      return List.of();
    }
    Optional<PodAllocation> starting;
    synchronized (pods) {
      try {
        starting = starting(livePods(), size);
      } catch (AllocationException e) {
        log.warn("no preferred {} devices: {}", resourceName, e.getMessage());
        return List.of();
      }
    }
    List<String> chosen = new ArrayList<>();
    for (int index : starting.map(p -> p.allocation().chosenDevices()).orElse(ImmutableList.of())) {
      if (index >= gpus.get().devices().size()) {
        return List.of();
      }
      chosen.add(gpus.get().devices().get(index).uuid());
    }
    if (chosen.isEmpty() || !available.containsAll(chosen) || !chosen.containsAll(mustInclude)) {
      return List.of();
    }
    return chosen;
  }

  /** The contract's enforcement; with MPS daemons, the pod's daemon made ready for it. */
  private GpuEnforcement enforcement(GpuAllocation resolved, Optional<PodAllocation> starting)
      throws AllocationException {
    GpuEnforcement enforcement = resolved.enforcement(naming);
    // shared slots always have their pod; MPS daemons serve shared slots only
    if (mps.isEmpty() || starting.isEmpty()) {
      return enforcement;
    }
    try {
      return mps.get().prepare(starting.get().pod(), resolved, enforcement);
    } catch (MpsException e) {
      throw new AllocationException(e.getMessage());
    }
  }

  private ImmutableList<PodAllocation> livePods() throws AllocationException {
    try {
      return pods.live().stream()
          .map(PodAllocation::of)
          .flatMap(Optional::stream)
          .filter(p -> p.allocation().node().equals(pods.nodeName()))
          .collect(ImmutableList.toImmutableList());
    } catch (ApiException e) {
      throw new AllocationException(
          "cannot list the pods of node " + pods.nodeName() + ": HTTP " + e.getCode());
    }
  }

  private Optional<PodAllocation> starting(List<PodAllocation> live, int deviceIds) {
    return live.stream()
        .filter(p -> p.phase().equals("Pending"))
        .filter(p -> !p.allocation().isResolved())
        .filter(p -> p.allocation().isShared() == shared)
        .filter(p -> p.requested(resourceName) > 0)
        .filter(p -> shared || p.allocation().deviceCount() == deviceIds)
        .min(
            Comparator.comparing(PodAllocation::created)
                .thenComparing(p -> p.pod().namespace())
                .thenComparing(p -> p.pod().name()));
  }

  private ContainerAllocateResponse response(GpuEnforcement enforcement) {
    ContainerAllocateResponse.Builder response =
        ContainerAllocateResponse.newBuilder().putAllEnvs(enforcement.env());
    for (HostMount m : enforcement.mounts()) {
      response.addMounts(
          Mount.newBuilder().setHostPath(m.hostPath()).setContainerPath(m.containerPath()));
    }
    if (naming == DeviceNaming.CDI) {
      // With CDI naming the contract lists the devices by their CDI names in
      // NVIDIA_VISIBLE_DEVICES; the runtime is handed the same names through CRI.
      for (String name :
          Splitter.on(',').split(enforcement.env().get(GpuEnforcement.NVIDIA_VISIBLE_DEVICES))) {
        response.addCdiDevices(CDIDevice.newBuilder().setName(name));
      }
    }
    return response.build();
  }
}
