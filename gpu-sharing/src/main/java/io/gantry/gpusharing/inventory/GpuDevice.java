package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One physical GPU. {@code index} is nvidia-smi's (enumeration order, by PCI bus id); the NUMA node
 * comes from the topology matrix and is empty when that is unavailable or says N/A.
 */
public record GpuDevice(
    int index,
    String uuid,
    String pciBusId,
    String productName,
    long memoryMib,
    MigMode migMode,
    List<MigInstance> migInstances,
    OptionalInt numaNode,
    GpuHealth health,
    Optional<FabricMembership> fabric) {

  public GpuDevice {
    requireNonNull(uuid, "uuid is null");
    requireNonNull(pciBusId, "pciBusId is null");
    requireNonNull(productName, "productName is null");
    requireNonNull(migMode, "migMode is null");
    migInstances = List.copyOf(requireNonNull(migInstances, "migInstances is null"));
    requireNonNull(numaNode, "numaNode is null");
    requireNonNull(health, "health is null");
    requireNonNull(fabric, "fabric is null");
    if (index < 0) {
      throw new IllegalArgumentException("index cannot be negative, got " + index);
    }
    if (memoryMib < 0) {
      throw new IllegalArgumentException("memoryMib cannot be negative, got " + memoryMib);
    }
  }

  /** This GPU attached to {@code numaNode}. */
  public GpuDevice withNumaNode(OptionalInt numaNode) {
    return new GpuDevice(
        index,
        uuid,
        pciBusId,
        productName,
        memoryMib,
        migMode,
        migInstances,
        numaNode,
        health,
        fabric);
  }

  /** This GPU with its MIG instances replaced. */
  public GpuDevice withMigInstances(List<MigInstance> migInstances) {
    return new GpuDevice(
        index,
        uuid,
        pciBusId,
        productName,
        memoryMib,
        migMode,
        migInstances,
        numaNode,
        health,
        fabric);
  }

  /** This GPU with {@code health}. */
  public GpuDevice withHealth(GpuHealth health) {
    return new GpuDevice(
        index,
        uuid,
        pciBusId,
        productName,
        memoryMib,
        migMode,
        migInstances,
        numaNode,
        health,
        fabric);
  }
}
