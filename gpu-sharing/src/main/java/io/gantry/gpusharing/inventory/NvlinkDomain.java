package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * GPUs that reach each other over NVLink. {@code gpuIndices} and {@code sources} are sorted. {@code
 * allToAll} is true when every pair has a direct NVLink path (an NVSwitch fabric, or NV# between
 * every pair); false for meshes such as the DGX-1 hybrid cube-mesh. {@code clique} names a
 * multi-node fabric domain. The derivation rule is the device agent's {@code
 * discovery.NvlinkDomains}.
 */
public record NvlinkDomain(
    String id,
    List<Integer> gpuIndices,
    boolean allToAll,
    Optional<String> clique,
    List<DomainSource> sources) {

  public NvlinkDomain {
    requireNonNull(id, "id is null");
    gpuIndices = List.copyOf(requireNonNull(gpuIndices, "gpuIndices is null"));
    requireNonNull(clique, "clique is null");
    sources = List.copyOf(requireNonNull(sources, "sources is null"));
    if (gpuIndices.isEmpty() || sources.isEmpty()) {
      throw new IllegalArgumentException("domain " + id + " needs GPUs and a source");
    }
  }
}
