package io.gantry.scheduler.kube.snapshot;

import static com.google.common.base.Strings.emptyToNull;
import static com.google.common.base.Strings.nullToEmpty;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.TopologyRules;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.gantry.scheduler.kube.crd.KaiTopologyConstraint;
import io.gantry.scheduler.kube.crd.KaiTopologyLevel;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topology objects and {@code topologyConstraint}s as the engine's values (kai-reference §2.2,
 * §2.4). A Topology that breaks KAI's rules is left out of the snapshot (a constraint naming it
 * then reports that it does not exist) and logged; a constraint without a topology is ignored, as
 * KAI ignores it.
 */
final class TopologyReader {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyReader.class);

  private TopologyReader() {}

  static ImmutableSortedMap<String, Topology> read(List<KaiTopology> objects) {
    TreeMap<String, Topology> out = new TreeMap<>();
    for (KaiTopology t : objects) {
      String name = t.getMetadata() == null ? "" : nullToEmpty(t.getMetadata().getName());
      List<TopologyLevel> levels = new ArrayList<>();
      if (t.spec() != null && t.spec().levels() != null) {
        for (KaiTopologyLevel l : t.spec().levels()) {
          levels.add(new TopologyLevel(nullToEmpty(l.nodeLabel()), nonEmpty(l.alias())));
        }
      }
      try {
        out.put(name, TopologyRules.topology(name, levels));
      } catch (KaiObjectException e) {
        LOG.warn("Topology {} left out: spec.{}: {}", name, e.field(), e.problem());
      }
    }
    return ImmutableSortedMap.copyOf(out);
  }

  /** The constraint as written; empty when it names no topology. */
  static Optional<TopologyConstraint> constraint(KaiTopologyConstraint c) {
    if (c == null || c.topology() == null || c.topology().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new TopologyConstraint(
            c.topology(),
            nonEmpty(c.requiredTopologyLevel()),
            nonEmpty(c.preferredTopologyLevel())));
  }

  private static Optional<String> nonEmpty(String s) {
    return Optional.ofNullable(emptyToNull(s));
  }
}
