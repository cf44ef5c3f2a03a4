package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;

/**
 * Everything in a pod spec that constrains which nodes it may land on, apart from resources.
 *
 * @param nodeSelector labels the node must carry with exactly these values
 */
public record PodPlacementRequirements(
    ImmutableSortedMap<String, String> nodeSelector,
    List<Toleration> tolerations,
    Affinity affinity) {
  private static final PodPlacementRequirements NONE =
      new PodPlacementRequirements(ImmutableSortedMap.of(), ImmutableList.of(), Affinity.none());

  public PodPlacementRequirements {
    nodeSelector = ImmutableSortedMap.copyOf(requireNonNull(nodeSelector, "nodeSelector is null"));
    tolerations = ImmutableList.copyOf(requireNonNull(tolerations, "tolerations is null"));
    requireNonNull(affinity, "affinity is null");
  }

  public static PodPlacementRequirements none() {
    return NONE;
  }
}
