package io.gantry.scheduler.plugins.dynamicresources;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.api.kai.DraGpuClaims;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceSlice;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The GPU devices DRA ResourceSlices publish, as cluster capacity counts them (kai-reference §5.1):
 * a device of the newest generation of its pool is a GPU when some GPU DeviceClass ({@link
 * DraGpuClaims#isGpuClass}) selects it, every selector of the class true for it; it counts once in
 * the cluster, and only while at least one ready node reaches it, so a device of an {@code
 * allNodes} or {@code nodeSelector} slice is not counted once per node it could serve.
 */
public final class PublishedGpuDevices {
  private final DeviceSelectorEvaluator evaluator;

  public PublishedGpuDevices(DeviceSelectorEvaluator evaluator) {
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
  }

  /** The GPU devices of {@code resources} that some ready node of {@code nodes} reaches. */
  public long count(DynamicResources resources, List<NodeInfo> nodes) {
    ImmutableList<DeviceClass> gpuClasses =
        resources.deviceClasses().values().stream()
            .filter(c -> DraGpuClaims.isGpuClass(c.name()))
            .collect(ImmutableList.toImmutableList());
    if (gpuClasses.isEmpty() || resources.slices().isEmpty()) {
      return 0;
    }
    ReadyNodes ready = new ReadyNodes(nodes);
    DeviceMatcher matcher = new DeviceMatcher(evaluator, resources.deviceClasses());
    long devices = 0;
    for (ResourceSlice slice : new DevicePools(resources.slices()).current()) {
      for (DraDevice device : slice.devices()) {
        if (ready.reach(slice.nodesOf(device)) && isGpu(gpuClasses, matcher, slice, device)) {
          devices++;
        }
      }
    }
    return devices;
  }

  private static boolean isGpu(
      List<DeviceClass> gpuClasses, DeviceMatcher matcher, ResourceSlice slice, DraDevice device) {
    String id = CandidateDevice.id(slice.driver(), slice.pool().name(), device.name());
    for (DeviceClass c : gpuClasses) {
      if (matcher.classSelects(c, slice.driver(), id, device)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether some ready node reaches a device; a slice's selection is shared by all its devices, so
   * each distinct selection is answered once.
   */
  private static final class ReadyNodes {
    private final List<NodeInfo> ready;
    // both looked up, never iterated
    private final Set<String> names = new HashSet<>();
    private final Map<DeviceNodes, Boolean> answers = new HashMap<>();

    ReadyNodes(List<NodeInfo> nodes) {
      this.ready = nodes.stream().filter(NodeInfo::ready).collect(ImmutableList.toImmutableList());
      ready.forEach(n -> names.add(n.name()));
    }

    boolean reach(DeviceNodes nodes) {
      if (nodes.nodeName().isPresent()) {
        return names.contains(nodes.nodeName().get());
      }
      return answers.computeIfAbsent(
          nodes, k -> ready.stream().anyMatch(n -> k.reaches(n.name(), n.labels())));
    }
  }
}
