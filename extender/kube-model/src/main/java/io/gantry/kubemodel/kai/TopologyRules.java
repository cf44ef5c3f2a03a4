package io.gantry.kubemodel.kai;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * KAI's rules for a Topology object (kai-reference §2.4) and for a constraint that names one: 1 to
 * 16 levels from the widest to the narrowest, each with a unique non-empty {@code nodeLabel}; an
 * alias is unique and equals no node label; {@code kubernetes.io/hostname} may only be the last
 * level. A constraint names levels of its topology by node label or alias, the preferred level at
 * or below the required one.
 */
public final class TopologyRules {
  public static final int MAX_LEVELS = 16;

  private TopologyRules() {}

  /**
   * The Topology, checked.
   *
   * @throws KaiObjectException naming the field ({@code levels}, {@code levels[i].alias}, …) of the
   *     first rule broken
   */
  public static Topology topology(String name, List<TopologyLevel> levels) {
    if (name.isEmpty()) {
      throw new KaiObjectException("name", "must not be empty");
    }
    if (levels.isEmpty() || levels.size() > MAX_LEVELS) {
      throw new KaiObjectException(
          "levels", "must list 1 to " + MAX_LEVELS + " levels, got " + levels.size());
    }
    Set<String> labels = new HashSet<>();
    for (int i = 0; i < levels.size(); i++) {
      String label = levels.get(i).nodeLabel();
      if (label.isEmpty()) {
        throw new KaiObjectException(field(i, "nodeLabel"), "must not be empty");
      }
      if (!labels.add(label)) {
        throw new KaiObjectException(
            field(i, "nodeLabel"), "duplicate node label \"" + label + "\"");
      }
      if (label.equals(NodeInfo.HOSTNAME_LABEL) && i != levels.size() - 1) {
        throw new KaiObjectException(
            field(i, "nodeLabel"), NodeInfo.HOSTNAME_LABEL + " may only be the last level");
      }
    }
    Set<String> aliases = new HashSet<>();
    for (int i = 0; i < levels.size(); i++) {
      Optional<String> alias = levels.get(i).alias();
      if (alias.isEmpty()) {
        continue;
      }
      if (alias.get().isEmpty()) {
        throw new KaiObjectException(field(i, "alias"), "must not be empty when set");
      }
      if (labels.contains(alias.get())) {
        throw new KaiObjectException(
            field(i, "alias"), "alias \"" + alias.get() + "\" equals a level's node label");
      }
      if (!aliases.add(alias.get())) {
        throw new KaiObjectException(field(i, "alias"), "duplicate alias \"" + alias.get() + "\"");
      }
    }
    return new Topology(name, ImmutableList.copyOf(levels));
  }

  /**
   * Checks a constraint against the topology it names.
   *
   * @throws KaiObjectException naming {@code requiredTopologyLevel} or {@code
   *     preferredTopologyLevel}
   */
  public static void checkConstraint(TopologyConstraint constraint, Topology topology) {
    OptionalInt required = level(constraint.requiredLevel(), topology, "requiredTopologyLevel");
    OptionalInt preferred = level(constraint.preferredLevel(), topology, "preferredTopologyLevel");
    if (required.isPresent()
        && preferred.isPresent()
        && preferred.getAsInt() < required.getAsInt()) {
      throw new KaiObjectException(
          "preferredTopologyLevel",
          "level \""
              + constraint.preferredLevel().get()
              + "\" is wider than the required level \""
              + constraint.requiredLevel().get()
              + "\"");
    }
  }

  private static OptionalInt level(Optional<String> level, Topology topology, String field) {
    if (level.isEmpty()) {
      return OptionalInt.empty();
    }
    OptionalInt index = topology.levelIndex(level.get());
    if (index.isEmpty()) {
      List<String> names = topology.levels().stream().map(TopologyLevel::nodeLabel).toList();
      throw new KaiObjectException(
          field,
          "topology \""
              + topology.name()
              + "\" has no level \""
              + level.get()
              + "\" (levels: "
              + String.join(", ", names)
              + ")");
    }
    return index;
  }

  private static String field(int index, String key) {
    return "levels[" + index + "]." + key;
  }
}
