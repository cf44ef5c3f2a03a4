package io.gantry.kubemodel.kai;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * How the scheduler reads a PodGroup's gang into the SubGroup tree (kai-reference §2.2, §4.4).
 * Without subGroups the job is one PodSet {@value JobInfo#DEFAULT_POD_SET} whose minMember defaults
 * to 1; with subGroups the root needs {@code minSubGroup} children (default all), an inner SubGroup
 * its {@code minSubGroup} children (default all), and a leaf without minMember is optional (0).
 *
 * <p>The shape rules of KAI's PodGroup webhook that the tree cannot be read without are errors here
 * too: minMember together with minSubGroup, unique SubGroup names, parents that exist, no cycle,
 * minSubGroup only on a SubGroup with children, minMember only on a leaf.
 */
public final class PodGroupShape {
  private PodGroupShape() {}

  /**
   * The PodGroup's SubGroup tree, checked against KAI's shape rules.
   *
   * @throws KaiObjectException naming the field ({@code minSubGroup}, {@code subGroups[i].parent},
   *     …) of the first rule broken
   */
  public static SubGroupSet tree(
      OptionalInt minMember, OptionalInt minSubGroup, List<SubGroupDefinition> subGroups) {
    return tree(minMember, minSubGroup, Optional.empty(), subGroups);
  }

  /**
   * The same, with the PodGroup's own {@code topologyConstraint} on the root. Without subGroups the
   * root's constraint covers the one PodSet.
   */
  public static SubGroupSet tree(
      OptionalInt minMember,
      OptionalInt minSubGroup,
      Optional<TopologyConstraint> topologyConstraint,
      List<SubGroupDefinition> subGroups) {
    if (minMember.isPresent() && minSubGroup.isPresent()) {
      throw new KaiObjectException("minSubGroup", "cannot be set together with minMember");
    }
    if (subGroups.isEmpty()) {
      if (minSubGroup.isPresent()) {
        throw new KaiObjectException("minSubGroup", "requires subGroups");
      }
      return new SubGroupSet(
          "",
          OptionalInt.empty(),
          ImmutableList.of(new PodSet(JobInfo.DEFAULT_POD_SET, minMember.orElse(1))),
          topologyConstraint);
    }
    Map<String, List<SubGroupDefinition>> children = children(subGroups);
    checkShapes(subGroups, children);
    return new SubGroupSet("", minSubGroup, childrenOf("", children), topologyConstraint);
  }

  private static Map<String, List<SubGroupDefinition>> children(
      List<SubGroupDefinition> subGroups) {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < subGroups.size(); i++) {
      if (index.putIfAbsent(subGroups.get(i).name(), i) != null) {
        throw new KaiObjectException(
            field(i, "name"), "duplicate SubGroup name \"" + subGroups.get(i).name() + "\"");
      }
    }
    Map<String, List<SubGroupDefinition>> children = new LinkedHashMap<>();
    for (int i = 0; i < subGroups.size(); i++) {
      SubGroupDefinition s = subGroups.get(i);
      Optional<String> parent = s.parent();
      if (parent.isPresent() && !index.containsKey(parent.get())) {
        throw new KaiObjectException(
            field(i, "parent"), "parent SubGroup \"" + parent.get() + "\" does not exist");
      }
      Set<String> seen = new HashSet<>();
      for (Optional<String> up = parent;
          up.isPresent();
          up = subGroups.get(index.get(up.get())).parent()) {
        if (up.get().equals(s.name()) || !seen.add(up.get())) {
          throw new KaiObjectException(
              field(i, "parent"), "SubGroup \"" + s.name() + "\" is in a parent cycle");
        }
      }
      children.computeIfAbsent(parent.orElse(""), k -> new ArrayList<>()).add(s);
    }
    return children;
  }

  private static void checkShapes(
      List<SubGroupDefinition> subGroups, Map<String, List<SubGroupDefinition>> children) {
    for (int i = 0; i < subGroups.size(); i++) {
      SubGroupDefinition s = subGroups.get(i);
      boolean inner = children.containsKey(s.name());
      if (s.minMember().isPresent() && s.minSubGroup().isPresent()) {
        throw new KaiObjectException(
            field(i, "minSubGroup"), "cannot be set together with minMember");
      }
      if (!inner && s.minSubGroup().isPresent()) {
        throw new KaiObjectException(
            field(i, "minSubGroup"), "only a SubGroup with child SubGroups can set minSubGroup");
      }
      if (inner && s.minMember().isPresent()) {
        throw new KaiObjectException(
            field(i, "minMember"),
            "SubGroup \"" + s.name() + "\" has child SubGroups; set minSubGroup instead");
      }
    }
  }

  private static ImmutableList<SubGroupNode> childrenOf(
      String parent, Map<String, List<SubGroupDefinition>> children) {
    ImmutableList.Builder<SubGroupNode> out = ImmutableList.builder();
    for (SubGroupDefinition s : children.getOrDefault(parent, List.of())) {
      if (children.containsKey(s.name())) {
        out.add(
            new SubGroupSet(
                s.name(), s.minSubGroup(), childrenOf(s.name(), children), s.topologyConstraint()));
      } else {
        out.add(new PodSet(s.name(), s.minMember().orElse(0), s.topologyConstraint()));
      }
    }
    return out.build();
  }

  private static String field(int index, String key) {
    return "subGroups[" + index + "]." + key;
  }
}
