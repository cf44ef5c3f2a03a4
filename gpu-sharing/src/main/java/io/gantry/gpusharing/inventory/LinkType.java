package io.gantry.gpusharing.inventory;

/**
 * How two GPUs are connected, best first, as {@code nvidia-smi topo -m} names it (legend of the
 * tool).
 */
public enum LinkType {
  /** NV#: a bonded set of # NVLinks. */
  NVLINK,
  /** PIX: at most a single PCIe bridge. */
  PIX,
  /** PXB: multiple PCIe bridges, without the PCIe host bridge. */
  PXB,
  /** PHB: a PCIe host bridge (typically the CPU). */
  PHB,
  /** NODE: PCIe and the interconnect between PCIe host bridges within a NUMA node. */
  NODE,
  /** SYS (SOC on old drivers): PCIe and the SMP interconnect between NUMA nodes. */
  SYS
}
