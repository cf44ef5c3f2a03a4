package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuLink;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The GPU part of {@code nvidia-smi topo -m}: how many GPUs it lists, the connection of every GPU
 * pair (ordered by pair) and each GPU's NUMA node where the matrix has a NUMA Affinity column with
 * a number for it.
 */
public record TopologyMatrix(
    int gpuCount, List<GpuLink> links, SortedMap<Integer, Integer> numaNodes) {
  public TopologyMatrix {
    links = List.copyOf(requireNonNull(links, "links is null"));
    numaNodes =
        Collections.unmodifiableSortedMap(
            new TreeMap<>(requireNonNull(numaNodes, "numaNodes is null")));
  }
}
