package io.gantry.nodecommon.nvml;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.discovery.NvlinkDomains;
import io.gantry.nodecommon.nvml.Nvml.DeviceHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a node's GPU inventory through NVML, with the same result nvidia-smi gives for the same
 * machine (nvidia-smi is itself an NVML client): the GPUs in NVML index order with UUID, PCI bus
 * id, name, total memory, MIG mode and MIG devices (profile from the MIG device's name, UUID, ids,
 * memory, SMs), NUMA node (the single node of the GPU's memory affinity), health ({@link
 * NvmlHealth}) and fabric registration; the GPU-pair links of {@code topo -m} ({@link NvmlLinks});
 * and the NVLink domains by {@link NvlinkDomains}. A value a GPU does not support is left out, as
 * nvidia-smi prints N/A. NVML must be initialised; this class does not shut it down.
 */
public final class NvmlDiscovery implements InventorySource {
  private static final Logger log = LoggerFactory.getLogger(NvmlDiscovery.class);

  private static final long BYTES_PER_MIB = 1024L * 1024L;
  private static final int MIG_DISABLE = 0;
  private static final int MIG_ENABLE = 1;
  private static final String MIG_NAME_MARK = " MIG ";
  private static final int NUMA_NODE_SET_WORDS = 4;

  private final Nvml nvml;

  public NvmlDiscovery(Nvml nvml) {
    this.nvml = requireNonNull(nvml, "nvml is null");
  }

  @Override
  public String name() {
    return "NVML";
  }

  @Override
  public GpuInventory discover() throws NvmlException {
    int count = nvml.deviceGetCount();
    if (count == 0) {
      throw NvmlException.noDevices();
    }
    List<DeviceHandle> handles = new ArrayList<>();
    List<GpuDevice> devices = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      DeviceHandle handle = nvml.deviceGetHandleByIndex(index);
      handles.add(handle);
      devices.add(device(index, handle));
    }
    Optional<List<GpuLink>> links = NvmlLinks.matrix(nvml, handles, devices);
    List<GpuLink> gpuLinks = links.orElse(List.of());
    return new GpuInventory(
        nvml.systemGetDriverVersion(),
        Optional.of(cudaVersion(nvml.systemGetCudaDriverVersion())),
        devices,
        links.isPresent(),
        gpuLinks,
        NvlinkDomains.derive(devices, gpuLinks));
  }

  /** 13000 → "13.0", 12080 → "12.8": nvidia-smi's cuda_version. */
  static String cudaVersion(int version) {
    return version / 1000 + "." + (version % 1000) / 10;
  }

  private GpuDevice device(int index, DeviceHandle handle) throws NvmlException {
    MigMode migMode = migMode(handle);
    return new GpuDevice(
        index,
        nvml.deviceGetUuid(handle),
        nvml.deviceGetPciInfo(handle).busId(),
        nvml.deviceGetName(handle),
        nvml.deviceGetMemoryInfo(handle).totalBytes() / BYTES_PER_MIB,
        migMode,
        migMode == MigMode.ENABLED ? migInstances(handle) : List.of(),
        numaNode(handle),
        NvmlHealth.of(nvml, handle),
        fabric(handle));
  }

  private MigMode migMode(DeviceHandle handle) throws NvmlException {
    Optional<Nvml.MigMode> mode = NvmlCalls.optional(() -> nvml.deviceGetMigMode(handle));
    if (mode.isEmpty()) {
      return MigMode.UNSUPPORTED;
    }
    return switch (mode.get().current()) {
      case MIG_DISABLE -> MigMode.DISABLED;
      case MIG_ENABLE -> MigMode.ENABLED;
      default ->
          throw NvmlException.unusable(
              "nvmlDeviceGetMigMode",
              "expected current mode 0 (disabled) or 1 (enabled), got " + mode.get().current());
    };
  }

  /** The MIG devices in MIG index order; empty slots (NVML_ERROR_NOT_FOUND) are skipped. */
  private List<MigInstance> migInstances(DeviceHandle gpu) throws NvmlException {
    List<MigInstance> instances = new ArrayList<>();
    int slots = nvml.deviceGetMaxMigDeviceCount(gpu);
    for (int slot = 0; slot < slots; slot++) {
      DeviceHandle mig;
      try {
        mig = nvml.deviceGetMigDeviceHandleByIndex(gpu, slot);
      } catch (NvmlException e) {
        if (e.is(Nvml.ERROR_NOT_FOUND)) {
          continue;
        }
        throw e;
      }
      String name = nvml.deviceGetName(mig);
      int mark = name.lastIndexOf(MIG_NAME_MARK);
      Optional<Nvml.DeviceAttributes> attributes =
          NvmlCalls.optional(() -> nvml.deviceGetAttributes(mig));
      instances.add(
          new MigInstance(
              slot,
              nvml.deviceGetGpuInstanceId(mig),
              nvml.deviceGetComputeInstanceId(mig),
              mark < 0
                  ? Optional.empty()
                  : Optional.of(name.substring(mark + MIG_NAME_MARK.length())),
              Optional.of(nvml.deviceGetUuid(mig)),
              nvml.deviceGetMemoryInfo(mig).totalBytes() / BYTES_PER_MIB,
              attributes.isPresent()
                  ? OptionalInt.of(attributes.get().multiprocessorCount())
                  : OptionalInt.empty()));
    }
    return instances;
  }

  /** The GPU's NUMA node when its memory affinity is exactly one node (topo -m's NUMA Affinity). */
  private OptionalInt numaNode(DeviceHandle handle) throws NvmlException {
    Optional<long[]> nodeSet =
        NvmlCalls.optional(() -> nvml.deviceGetMemoryAffinity(handle, NUMA_NODE_SET_WORDS));
    if (nodeSet.isEmpty()) {
      return OptionalInt.empty();
    }
    int found = -1;
    long[] words = nodeSet.get();
    for (int word = 0; word < words.length; word++) {
      if (words[word] == 0) {
        continue;
      }
      if (found >= 0 || Long.bitCount(words[word]) != 1) {
        log.debug("GPU memory affinity spans several NUMA nodes: no single NUMA node");
        return OptionalInt.empty();
      }
      found = word * Long.SIZE + Long.numberOfTrailingZeros(words[word]);
    }
    return found < 0 ? OptionalInt.empty() : OptionalInt.of(found);
  }

  /** Present when the GPU completed registration with an NVSwitch fabric, as in -q -x. */
  private Optional<FabricMembership> fabric(DeviceHandle handle) throws NvmlException {
    Optional<Nvml.FabricInfo> info = NvmlCalls.optional(() -> nvml.deviceGetGpuFabricInfo(handle));
    if (info.isEmpty()
        || info.get().state() != NvmlHealth.FABRIC_STATE_COMPLETED
        || info.get().status() != 0) {
      return Optional.empty();
    }
    return Optional.of(
        new FabricMembership(
            Optional.of(info.get().clusterUuid()), OptionalInt.of(info.get().cliqueId())));
  }
}
