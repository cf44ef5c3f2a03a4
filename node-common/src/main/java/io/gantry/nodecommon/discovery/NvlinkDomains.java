package io.gantry.nodecommon.discovery;

import io.gantry.gpusharing.inventory.DomainSource;
import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Derives NVLink domains. The rule:
 *
 * <ol>
 *   <li>Two GPUs are joined when the topology matrix shows NV# (one or more bonded NVLinks) between
 *       them, or when both are registered with the same NVSwitch fabric: nvidia-smi -q -x reports
 *       fabric state Completed and status Success for both, with equal clusterUuid and cliqueId
 *       (absent values compare equal, as on drivers before 570).
 *   <li>A domain is a connected component of that relation with at least two GPUs, or a single GPU
 *       in a multi-node fabric clique (its NVLink peers are on other nodes). A GPU with no NVLink
 *       peer is in no domain.
 *   <li>{@code allToAll}: every pair of the domain is joined directly (all on one NVSwitch fabric,
 *       or NV# between every pair). On NVSwitch systems that holds, so all their GPUs form one
 *       all-to-all domain; the DGX-1 hybrid cube-mesh is one domain of 8 that is not all-to-all.
 *   <li>{@code clique} is the fabric's {@code <clusterUuid>.<cliqueId>} when every GPU of the
 *       domain is in the same multi-node fabric clique; the domain's id is then the clique, and
 *       otherwise {@code local-<lowest GPU index>}.
 *   <li>Domains are ordered by their lowest GPU index; {@code sources} says which relation joined
 *       GPUs (LINK_MATRIX for NV# edges, FABRIC for fabric membership).
 * </ol>
 */
public final class NvlinkDomains {
  private NvlinkDomains() {}

  /**
   * The domains of {@code devices} (in index order 0..n-1) joined by {@code links} (the matrix's
   * GPU pairs; empty when the matrix is unavailable).
   */
  public static List<NvlinkDomain> derive(List<GpuDevice> devices, List<GpuLink> links) {
    int n = devices.size();
    boolean[][] nvlink = new boolean[n][n];
    for (GpuLink link : links) {
      if (link.type() == LinkType.NVLINK && link.gpuIndexB() < n) {
        nvlink[link.gpuIndexA()][link.gpuIndexB()] = true;
        nvlink[link.gpuIndexB()][link.gpuIndexA()] = true;
      }
    }
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        if (nvlink[a][b] || sameFabric(devices.get(a), devices.get(b))) {
          union(parent, a, b);
        }
      }
    }
    SortedMap<Integer, List<Integer>> components = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      components.computeIfAbsent(find(parent, i), root -> new ArrayList<>()).add(i);
    }
    List<NvlinkDomain> domains = new ArrayList<>();
    for (List<Integer> members : components.values()) {
      Optional<String> clique = commonClique(devices, members);
      if (members.size() < 2 && clique.isEmpty()) {
        continue;
      }
      boolean allToAll = true;
      boolean viaMatrix = false;
      boolean viaFabric = clique.isPresent();
      for (int i = 0; i < members.size(); i++) {
        for (int j = i + 1; j < members.size(); j++) {
          int a = members.get(i);
          int b = members.get(j);
          boolean fabric = sameFabric(devices.get(a), devices.get(b));
          viaMatrix |= nvlink[a][b];
          viaFabric |= fabric;
          allToAll &= nvlink[a][b] || fabric;
        }
      }
      List<DomainSource> sources = new ArrayList<>();
      if (viaMatrix) {
        sources.add(DomainSource.LINK_MATRIX);
      }
      if (viaFabric) {
        sources.add(DomainSource.FABRIC);
      }
      domains.add(
          new NvlinkDomain(
              clique.orElse("local-" + members.get(0)), members, allToAll, clique, sources));
    }
    return domains;
  }

  private static boolean sameFabric(GpuDevice a, GpuDevice b) {
    return a.fabric().isPresent() && a.fabric().equals(b.fabric());
  }

  private static Optional<String> commonClique(List<GpuDevice> devices, List<Integer> members) {
    Optional<FabricMembership> first = devices.get(members.get(0)).fabric();
    for (int i : members) {
      if (!devices.get(i).fabric().equals(first)) {
        return Optional.empty();
      }
    }
    return first.flatMap(FabricMembership::clique);
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  /**
   * Joins the sets of a and b under the smaller root, so a component's root is its lowest index.
   */
  private static void union(int[] parent, int a, int b) {
    int ra = find(parent, a);
    int rb = find(parent, b);
    if (ra != rb) {
      parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
}
