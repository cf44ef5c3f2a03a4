package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.Optional;

/** Binds a {@code topologyConstraint} of a job or a subgroup. */
final class TopologyConstraintBinder {
  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of("topology", "requiredTopologyLevel", "preferredTopologyLevel");

  private TopologyConstraintBinder() {}

  static Optional<TopologyConstraintSpec> bind(Optional<Field> field, Catalog catalog)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    MapReader constraint = field.get().asMap(KEYS);
    Field topologyField = constraint.required("topology");
    String name = topologyField.asNonEmptyString();
    Optional<TopologySpec> topology = catalog.topology(name);
    if (topology.isEmpty()) {
      throw topologyField.error("unknown topology " + Field.quote(name));
    }
    return Optional.of(
        new TopologyConstraintSpec(
            name,
            level(constraint.optional("requiredTopologyLevel"), topology.get()),
            level(constraint.optional("preferredTopologyLevel"), topology.get())));
  }

  private static Optional<String> level(Optional<Field> field, TopologySpec topology)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    String level = field.get().asNonEmptyString();
    if (!topology.hasLevel(level)) {
      ImmutableList.Builder<String> labels = ImmutableList.builder();
      topology.levels().forEach(candidate -> labels.add(candidate.nodeLabel()));
      throw field
          .get()
          .error(
              "topology "
                  + Field.quote(topology.name())
                  + " has no level "
                  + Field.quote(level)
                  + " (levels: "
                  + String.join(", ", labels.build())
                  + ")");
    }
    return Optional.of(level);
  }
}
