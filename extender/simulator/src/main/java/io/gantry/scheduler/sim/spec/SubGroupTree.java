package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job's subgroups, bound and checked as a tree: parents exist and come before their children,
 * leaves hold tasks and a gang size, inner subgroups say how many children must be satisfied.
 */
final class SubGroupTree {
  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of("name", "parent", "minMember", "minSubGroup", "topologyConstraint");

  private final List<SubGroupSpec> subGroups;
  private final ImmutableMap<String, Integer> childCounts;

  private SubGroupTree(List<SubGroupSpec> subGroups, ImmutableMap<String, Integer> childCounts) {
    this.subGroups = subGroups;
    this.childCounts = childCounts;
  }

  static SubGroupTree bind(List<Field> items, Catalog catalog) throws ScenarioException {
    ImmutableList.Builder<SubGroupSpec> specs = ImmutableList.builder();
    List<MapReader> readers = new ArrayList<>();
    Map<String, Integer> indexByName = new LinkedHashMap<>();
    UniqueNames names = new UniqueNames("subgroup");
    for (Field item : items) {
      MapReader subGroup = item.asMap(KEYS);
      String name = names.take(subGroup.required("name"));
      indexByName.put(name, readers.size());
      readers.add(subGroup);
      specs.add(
          new SubGroupSpec(
              name,
              subGroup.optString("parent"),
              subGroup.optInt("minMember", 0),
              subGroup.optInt("minSubGroup", 0),
              TopologyConstraintBinder.bind(subGroup.optional("topologyConstraint"), catalog),
              subGroup.line()));
    }
    List<SubGroupSpec> bound = specs.build();
    for (int i = 0; i < bound.size(); i++) {
      Optional<String> parent = bound.get(i).parent();
      if (parent.isPresent() && !indexByName.containsKey(parent.get())) {
        throw readers
            .get(i)
            .required("parent")
            .error("unknown subgroup " + Field.quote(parent.get()));
      }
    }
    Map<String, Integer> childCounts = new LinkedHashMap<>();
    for (int i = 0; i < bound.size(); i++) {
      checkParent(bound, i, readers.get(i), indexByName);
      bound.get(i).parent().ifPresent(parent -> childCounts.merge(parent, 1, Integer::sum));
    }
    SubGroupTree tree = new SubGroupTree(bound, ImmutableMap.copyOf(childCounts));
    for (int i = 0; i < bound.size(); i++) {
      tree.checkShape(bound.get(i), readers.get(i));
    }
    return tree;
  }

  List<SubGroupSpec> subGroups() {
    return subGroups;
  }

  boolean contains(String name) {
    for (SubGroupSpec subGroup : subGroups) {
      if (subGroup.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  boolean isLeaf(String name) {
    return !childCounts.containsKey(name);
  }

  int rootCount() {
    int roots = 0;
    for (SubGroupSpec subGroup : subGroups) {
      if (subGroup.parent().isEmpty()) {
        roots++;
      }
    }
    return roots;
  }

  /** Rejects a cycle through this subgroup, then a parent listed after its child. */
  private static void checkParent(
      List<SubGroupSpec> subGroups, int index, MapReader reader, Map<String, Integer> indexByName)
      throws ScenarioException {
    SubGroupSpec subGroup = subGroups.get(index);
    if (subGroup.parent().isEmpty()) {
      return;
    }
    Field parentField = reader.required("parent");
    String parent = subGroup.parent().get();
    List<String> chain = new ArrayList<>(List.of(subGroup.name()));
    Optional<String> ancestor = subGroup.parent();
    while (ancestor.isPresent() && !chain.contains(ancestor.get())) {
      chain.add(ancestor.get());
      ancestor = subGroups.get(indexByName.get(ancestor.get())).parent();
    }
    if (ancestor.isPresent() && ancestor.get().equals(subGroup.name())) {
      chain.add(subGroup.name());
      throw parentField.error(
          "subgroup "
              + Field.quote(subGroup.name())
              + " is in a cycle: "
              + String.join(" -> ", chain));
    }
    if (indexByName.get(parent) > index) {
      throw parentField.error(
          "subgroup "
              + Field.quote(parent)
              + " must be listed before its child "
              + Field.quote(subGroup.name()));
    }
  }

  private void checkShape(SubGroupSpec subGroup, MapReader reader) throws ScenarioException {
    // minSubGroup on a leaf and minMember on an inner subgroup break KAI's PodGroup rules, which
    // the engine's PodGroupShape applies when the scenario is compiled
    int children = childCounts.getOrDefault(subGroup.name(), 0);
    OptionalInt minSubGroup = subGroup.minSubGroup();
    if (children > 0 && minSubGroup.isPresent() && minSubGroup.getAsInt() > children) {
      throw reader
          .required("minSubGroup")
          .error(
              "must be <= "
                  + children
                  + " (the number of its child subgroups), got "
                  + minSubGroup.getAsInt());
    }
  }
}
