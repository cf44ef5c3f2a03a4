package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Topology object (kai-reference §2.4): levels ordered from the widest domain (index 0) to the
 * narrowest. Its rules are checked where it is read ({@code io.gantry.kubemodel.kai.TopologyRules},
 * in kube-model).
 */
public record Topology(String name, ImmutableList<TopologyLevel> levels) {
  public Topology {
    requireNonNull(name, "name is null");
    requireNonNull(levels, "levels is null");
  }

  /** The index of the level a constraint names by node label or alias; empty when none does. */
  public OptionalInt levelIndex(String level) {
    for (int i = 0; i < levels.size(); i++) {
      if (levels.get(i).isNamed(level)) {
        return OptionalInt.of(i);
      }
    }
    return OptionalInt.empty();
  }

  /**
   * The node's domain id at each level (dot-joined label values from the top level down, so the id
   * of a domain starts with its parent's), or empty when the node lacks any level label and so
   * belongs to no domain of this topology.
   */
  public Optional<ImmutableList<String>> domainIds(Map<String, String> nodeLabels) {
    ImmutableList.Builder<String> ids = ImmutableList.builder();
    StringBuilder id = new StringBuilder();
    for (TopologyLevel level : levels) {
      String value = nodeLabels.get(level.nodeLabel());
      if (value == null) {
        return Optional.empty();
      }
      if (id.length() > 0) {
        id.append('.');
      }
      id.append(value);
      ids.add(id.toString());
    }
    return Optional.of(ids.build());
  }
}
