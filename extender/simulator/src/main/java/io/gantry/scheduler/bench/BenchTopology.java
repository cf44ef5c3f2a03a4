package io.gantry.scheduler.bench;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import java.util.Optional;

/**
 * The network topology of a bench cluster with {@code levels} levels: the last is the host, the one
 * above it groups {@value #RACK_NODES} consecutive nodes (a rack), and each level above that groups
 * {@value #FAN_OUT} domains of the level below. Jobs are required to stay inside one rack (with one
 * level, inside one host).
 */
final class BenchTopology {
  static final int RACK_NODES = 100;
  static final int FAN_OUT = 4;
  private static final String LABEL_PREFIX = "bench.gantry.io/level-";

  private BenchTopology() {}

  static Topology topology(String name, int levels) {
    ImmutableList.Builder<TopologyLevel> out = ImmutableList.builder();
    for (int l = 0; l < levels - 1; l++) {
      out.add(new TopologyLevel(LABEL_PREFIX + l, Optional.empty()));
    }
    out.add(new TopologyLevel(NodeInfo.HOSTNAME_LABEL, Optional.empty()));
    return new Topology(name, out.build());
  }

  /** The node's labels: its host name and, per level above the host, its domain's index. */
  static ImmutableSortedMap<String, String> labels(String name, int index, int levels) {
    ImmutableSortedMap.Builder<String, String> out = ImmutableSortedMap.naturalOrder();
    out.put(NodeInfo.HOSTNAME_LABEL, name);
    long domainNodes = RACK_NODES;
    for (int l = levels - 2; l >= 0; l--) {
      out.put(LABEL_PREFIX + l, "d" + (index / domainNodes));
      domainNodes *= FAN_OUT;
    }
    return out.build();
  }

  /** Required placement at the level just above the host (the host itself with one level). */
  static TopologyConstraint constraint(String topology, int levels) {
    String level = levels == 1 ? NodeInfo.HOSTNAME_LABEL : LABEL_PREFIX + (levels - 2);
    return new TopologyConstraint(topology, Optional.of(level), Optional.empty());
  }
}
