package io.gantry.nodecommon.discovery;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.nodecommon.nvidiasmi.GpuListParser;
import io.gantry.nodecommon.nvidiasmi.MigListing;
import io.gantry.nodecommon.nvidiasmi.MigListing.MigIdentity;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException.Reason;
import io.gantry.nodecommon.nvidiasmi.QueryXmlParser;
import io.gantry.nodecommon.nvidiasmi.SmiQuery;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrix;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrixParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a node's GPU inventory with nvidia-smi. {@code -q -x} is required: the GPUs, their memory,
 * MIG devices, health and fabric registration. {@code topo -m} adds NUMA nodes and the GPU link
 * matrix, and {@code -L} (run only when a GPU has MIG enabled) adds MIG profile names and UUIDs;
 * when either of those fails, or disagrees with -q -x about the GPUs, discovery goes on without it
 * and logs a warning naming the problem.
 */
public final class GpuDiscovery implements InventorySource {
  private static final Logger log = LoggerFactory.getLogger(GpuDiscovery.class);

  private final NvidiaSmi smi;

  public GpuDiscovery(NvidiaSmi smi) {
    this.smi = requireNonNull(smi, "smi is null");
  }

  @Override
  public String name() {
    return "nvidia-smi";
  }

  /**
   * Takes the node's GPU inventory: {@code -q -x}, then {@code topo -m} and {@code -L} where they
   * work.
   *
   * @throws NvidiaSmiException when nvidia-smi -q -x fails or cannot be read, or reports no GPU
   *     (NO_DEVICES)
   */
  @Override
  public GpuInventory discover() throws NvidiaSmiException {
    SmiQuery query = QueryXmlParser.parse(smi.run("-q", "-x"));
    if (query.devices().isEmpty()) {
      throw new NvidiaSmiException(
          Reason.NO_DEVICES, "no NVIDIA GPU found: nvidia-smi reports no devices");
    }
    Optional<TopologyMatrix> matrix = topology(query.devices().size());
    Optional<MigListing> migs = migListing(query.devices());
    List<GpuDevice> devices = new ArrayList<>();
    for (GpuDevice device : query.devices()) {
      GpuDevice d = device;
      if (matrix.isPresent()) {
        Integer numa = matrix.get().numaNodes().get(d.index());
        d = d.withNumaNode(numa == null ? OptionalInt.empty() : OptionalInt.of(numa));
      }
      if (migs.isPresent()) {
        d = d.withMigInstances(named(d, migs.get().of(d.uuid())));
      }
      devices.add(d);
    }
    List<GpuLink> links = matrix.map(TopologyMatrix::links).orElse(List.of());
    return new GpuInventory(
        query.driverVersion(),
        query.cudaVersion(),
        devices,
        matrix.isPresent(),
        links,
        NvlinkDomains.derive(devices, links));
  }

  private Optional<TopologyMatrix> topology(int gpuCount) {
    try {
      TopologyMatrix matrix = TopologyMatrixParser.parse(smi.run("topo", "-m"));
      if (matrix.gpuCount() != gpuCount) {
        log.warn(
            "ignoring the link matrix: nvidia-smi topo -m lists {} GPUs, nvidia-smi -q -x lists {}",
            matrix.gpuCount(),
            gpuCount);
        return Optional.empty();
      }
      return Optional.of(matrix);
    } catch (NvidiaSmiException e) {
      log.warn("no link matrix or NUMA nodes: {}", e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<MigListing> migListing(List<GpuDevice> devices) {
    if (devices.stream().noneMatch(d -> d.migMode() == MigMode.ENABLED)) {
      return Optional.empty();
    }
    try {
      return Optional.of(GpuListParser.parse(smi.run("-L")));
    } catch (NvidiaSmiException e) {
      log.warn("no MIG profile names or UUIDs: {}", e.getMessage());
      return Optional.empty();
    }
  }

  /** The MIG instances of {@code gpu} with the profile and UUID -L gives for the same index. */
  private static List<MigInstance> named(GpuDevice gpu, List<MigIdentity> identities) {
    List<MigInstance> named = new ArrayList<>();
    for (MigInstance mig : gpu.migInstances()) {
      Optional<MigIdentity> identity =
          identities.stream().filter(i -> i.index() == mig.index()).findFirst();
      if (identity.isEmpty()) {
        log.warn("nvidia-smi -L lists no MIG device {} on GPU {}", mig.index(), gpu.index());
      }
      named.add(identity.map(i -> mig.withIdentity(i.profile(), i.uuid())).orElse(mig));
    }
    return named;
  }
}
