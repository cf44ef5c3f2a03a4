package io.gantry.scheduler.plugins.dynamicresources;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.api.dra.DraGpuClaims;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceSlice;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The GPU devices DRA ResourceSlices publish, as cluster capacity counts them (kai-reference §5.1):
 * a device of the newest generation of its pool is a GPU when some GPU DeviceClass ({@link
 * DraGpuClaims#isGpuClass}) selects it, every selector of the class true for it; it counts once in
 * the cluster, and only while at least one ready node reaches it, so a device of an {@code
 * allNodes} or {@code nodeSelector} slice is not counted once per node it could serve.
 *
 * <p>One instance serves every cycle of a scheduler: which devices of a slice are GPUs is kept from
 * the last count, for the slices it saw (by identity: front doors hand the same objects while the
 * API objects' versions stay) as long as the GPU classes are equal, so a cycle evaluates selectors
 * only for slices or classes that changed. Safe to call from several threads.
 */
public final class PublishedGpuDevices {
  /** Per slice, which of its devices the GPU classes select; looked up, never iterated. */
  private record Verdicts(
      ImmutableList<DeviceClass> gpuClasses, IdentityHashMap<ResourceSlice, BitSet> bySlice) {}

  private final DeviceSelectorEvaluator evaluator;
  private final AtomicReference<Verdicts> last =
      new AtomicReference<>(new Verdicts(ImmutableList.of(), new IdentityHashMap<>()));

  public PublishedGpuDevices(DeviceSelectorEvaluator evaluator) {
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
  }

  /** The GPU devices of {@code resources} that some ready node of {@code nodes} reaches. */
  public long count(DynamicResources resources, List<NodeInfo> nodes) {
    ReadyNodes ready = new ReadyNodes(nodes);
    long[] devices = {0};
    forEachGpu(
        resources,
        (slice, device) -> {
          if (ready.reach(slice.nodesOf(device))) {
            devices[0]++;
          }
        });
    return devices[0];
  }

  /**
   * The GPU devices of {@code resources} that belong to one node, by node name: those of a slice or
   * device that names its node. Devices several nodes reach ({@code allNodes}, a node selector)
   * belong to none. Readiness is not asked: this is what the node has, as its device plugin's GPU
   * count is.
   */
  public ImmutableSortedMap<String, Long> perNode(DynamicResources resources) {
    SortedMap<String, Long> out = new TreeMap<>();
    forEachGpu(
        resources,
        (slice, device) ->
            slice.nodesOf(device).nodeName().ifPresent(n -> out.merge(n, 1L, Long::sum)));
    return ImmutableSortedMap.copyOfSorted(out);
  }

  /** Calls {@code gpu} for each GPU device of the newest generation of its pool. */
  private void forEachGpu(DynamicResources resources, BiConsumer<ResourceSlice, DraDevice> gpu) {
    ImmutableList<DeviceClass> gpuClasses =
        resources.deviceClasses().values().stream()
            .filter(c -> DraGpuClaims.isGpuClass(c.name()))
            .collect(ImmutableList.toImmutableList());
    if (gpuClasses.isEmpty() || resources.slices().isEmpty()) {
      return;
    }
    Verdicts before = last.get();
    IdentityHashMap<ResourceSlice, BitSet> known =
        before.gpuClasses().equals(gpuClasses) ? before.bySlice() : new IdentityHashMap<>();
    IdentityHashMap<ResourceSlice, BitSet> now = new IdentityHashMap<>();
    DeviceMatcher matcher = new DeviceMatcher(evaluator, resources.deviceClasses());
    for (ResourceSlice slice : new DevicePools(resources.slices()).current()) {
      BitSet gpus = known.get(slice);
      if (gpus == null) {
        gpus = gpus(gpuClasses, matcher, slice);
      }
      now.put(slice, gpus);
      for (int i = gpus.nextSetBit(0); i >= 0; i = gpus.nextSetBit(i + 1)) {
        gpu.accept(slice, slice.devices().get(i));
      }
    }
    last.set(new Verdicts(gpuClasses, now));
  }

  /** The indices of the slice's devices some GPU class selects. */
  private static BitSet gpus(
      List<DeviceClass> gpuClasses, DeviceMatcher matcher, ResourceSlice slice) {
    BitSet out = new BitSet(slice.devices().size());
    for (int i = 0; i < slice.devices().size(); i++) {
      DraDevice device = slice.devices().get(i);
      String id = CandidateDevice.id(slice.driver(), slice.pool().name(), device.name());
      for (DeviceClass c : gpuClasses) {
        if (matcher.classSelects(c, slice.driver(), id, device)) {
          out.set(i);
          break;
        }
      }
    }
    return out;
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
