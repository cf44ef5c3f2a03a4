package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * A node's GPU interconnect domains: groups of device indices that share a fast link (NVLink or
 * NVSwitch). A multi-GPU task prefers devices of one domain. A device in no group is a domain of
 * its own. {@link #NONE} is a node that publishes no domains: its devices are counted, not named.
 *
 * <p>{@code unhealthyDevices} are devices the node has but does not offer (its device plugin
 * reports them unhealthy, so the kubelet leaves them out of the allocatable count): the node's
 * devices are the allocatable ones plus these, and no task is given one of them.
 */
public record GpuTopology(
    ImmutableList<ImmutableList<Integer>> domains, ImmutableSortedSet<Integer> unhealthyDevices) {
  public static final GpuTopology NONE =
      new GpuTopology(ImmutableList.of(), ImmutableSortedSet.of());

  public GpuTopology {
    requireNonNull(domains, "domains is null");
    requireNonNull(unhealthyDevices, "unhealthyDevices is null");
    for (int index : unhealthyDevices) {
      if (index < 0) {
        throw new IllegalArgumentException("unhealthy device index " + index + " is negative");
      }
    }
    TreeSet<Integer> seen = new TreeSet<>();
    for (int d = 0; d < domains.size(); d++) {
      if (domains.get(d).isEmpty()) {
        throw new IllegalArgumentException("GPU domain " + d + " is empty");
      }
      for (int index : domains.get(d)) {
        if (index < 0) {
          throw new IllegalArgumentException(
              "GPU domain " + d + ": device index " + index + " is negative");
        }
        if (!seen.add(index)) {
          throw new IllegalArgumentException(
              "GPU domain " + d + ": device " + index + " is already in another domain");
        }
      }
    }
  }

  /** Domains of a node whose devices are all healthy. */
  public static GpuTopology of(List<? extends List<Integer>> domains) {
    return of(domains, List.of());
  }

  public static GpuTopology of(
      List<? extends List<Integer>> domains, Collection<Integer> unhealthyDevices) {
    ImmutableList.Builder<ImmutableList<Integer>> copy = ImmutableList.builder();
    domains.forEach(d -> copy.add(ImmutableList.copyOf(d)));
    return new GpuTopology(copy.build(), ImmutableSortedSet.copyOf(unhealthyDevices));
  }

  /** Whether the node names its devices (it publishes at least one domain). */
  public boolean known() {
    return !domains.isEmpty();
  }

  /**
   * The domain of a device: its group's position, or for a device in no group {@code
   * domains().size() + index}, a domain of its own.
   */
  public int domainOf(int index) {
    for (int d = 0; d < domains.size(); d++) {
      if (domains.get(d).contains(index)) {
        return d;
      }
    }
    return domains.size() + index;
  }
}
