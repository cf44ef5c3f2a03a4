package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.QuantityUnit;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import io.gantry.kubemodel.selector.TaintSpec;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Binds the {@code nodes} section. */
final class NodeBinder {
  static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
  static final int DEFAULT_MAX_PODS = 110;
  static final int MIN_COUNT = 1;

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "name",
          "count",
          "gpus",
          "gpuMemory",
          "gpuMemorySynced",
          "gpuProduct",
          "cpu",
          "memory",
          "maxPods",
          "extended",
          "migStrategy",
          "labels",
          "taints",
          "unschedulable",
          "ready",
          "gpuTopology");
  private static final ImmutableSet<String> TAINT_KEYS = ImmutableSet.of("key", "value", "effect");

  // Resources with a field of their own; listing them in extended would count them twice.
  private static final ImmutableMap<String, String> OWN_FIELDS =
      ImmutableMap.of(
          "cpu", "cpu", "memory", "memory", "pods", "maxPods", "nvidia.com/gpu", "gpus");

  private NodeBinder() {}

  static List<NodeSpec> bind(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<NodeSpec> nodes = ImmutableList.builder();
    UniqueNames names = new UniqueNames("node");
    for (Field item : items) {
      MapReader node = item.asMap(KEYS);
      Field nameField = node.required("name");
      String name = nameField.asNonEmptyString();
      int count = node.intOr("count", 1, MIN_COUNT);
      for (String expanded : Names.expand(name, count)) {
        names.add(nameField, expanded);
      }
      Optional<Field> cpu = node.optional("cpu");
      Optional<Field> memory = node.optional("memory");
      Optional<Field> migStrategy = node.optional("migStrategy");
      int gpus = node.intOr("gpus", 0, 0);
      nodes.add(
          new NodeSpec(
              name,
              count,
              gpus,
              node.optLong("gpuMemory", 1),
              node.booleanOr("gpuMemorySynced", true),
              node.optString("gpuProduct"),
              cpu.isPresent() ? cpu.get().asQuantity(QuantityUnit.MILLIS) : 0,
              memory.isPresent() ? memory.get().asQuantity(QuantityUnit.WHOLE) : 0,
              node.intOr("maxPods", DEFAULT_MAX_PODS, 0),
              extended(node.optional("extended")),
              migStrategy.isPresent()
                  ? migStrategy.get().asEnum(MigStrategy.values(), MigStrategy::yamlName)
                  : MigStrategy.NONE,
              labels(node.optional("labels"), name, count),
              taints(node.list("taints")),
              node.booleanOr("unschedulable", false),
              node.booleanOr("ready", true),
              node.line(),
              node.fieldLines(),
              gpuTopology(node.list("gpuTopology"), gpus)));
    }
    return nodes.build();
  }

  private static ImmutableSortedMap<String, Long> extended(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, Long> extended = ImmutableSortedMap.naturalOrder();
    if (field.isPresent()) {
      for (Field resource : field.get().asOpenMap().fields()) {
        String ownField = OWN_FIELDS.get(resource.key());
        if (ownField != null) {
          throw resource.error("set this with the node's " + ownField + " field");
        }
        extended.put(resource.key(), resource.asQuantity(QuantityUnit.WHOLE));
      }
    }
    return extended.build();
  }

  /**
   * The labels as written. Every node carries its own name under {@code kubernetes.io/hostname}; a
   * snapshot of a real cluster writes that label out, so it may be written with exactly that value,
   * on an entry that stands for one node.
   */
  private static ImmutableSortedMap<String, String> labels(
      Optional<Field> field, String name, int count) throws ScenarioException {
    if (field.isEmpty()) {
      return ImmutableSortedMap.of();
    }
    for (Field label : field.get().asOpenMap().fields()) {
      if (label.key().equals(HOSTNAME_LABEL)) {
        checkHostname(label, name, count);
      }
    }
    return field.get().asStringMap();
  }

  private static void checkHostname(Field label, String name, int count) throws ScenarioException {
    String value = label.asString();
    if (count > 1) {
      throw label.error(
          "must be left out with count "
              + count
              + ": each node carries its own name ("
              + name
              + "-0 ... "
              + name
              + "-"
              + (count - 1)
              + ") under this label");
    }
    if (!value.equals(name)) {
      throw label.error(
          "must be the node's name "
              + Field.quote(name)
              + ", got "
              + Field.quote(value)
              + " (every node carries its own name under this label)");
    }
  }

  /**
   * {@code gpuTopology}: a list of device groups, each a list of device indices below the node's
   * {@code gpus}, no index in two groups.
   */
  private static ImmutableList<ImmutableList<Integer>> gpuTopology(List<Field> groups, int gpus)
      throws ScenarioException {
    ImmutableList.Builder<ImmutableList<Integer>> domains = ImmutableList.builder();
    TreeSet<Integer> seen = new TreeSet<>();
    for (Field group : groups) {
      List<Field> indices = group.asList();
      if (indices.isEmpty()) {
        throw group.error("expected a non-empty list of GPU indices sharing a fast link");
      }
      ImmutableList.Builder<Integer> domain = ImmutableList.builder();
      for (Field index : indices) {
        int i = index.asInt(0);
        if (i >= gpus) {
          throw index.error(
              "GPU index "
                  + i
                  + " is out of range: the node has "
                  + gpus
                  + " GPUs (0.."
                  + (gpus - 1)
                  + ")");
        }
        if (!seen.add(i)) {
          throw index.error("GPU index " + i + " is in two groups (a GPU belongs to one domain)");
        }
        domain.add(i);
      }
      domains.add(domain.build());
    }
    return domains.build();
  }

  private static List<TaintSpec> taints(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<TaintSpec> taints = ImmutableList.builder();
    TreeSet<String> seen = new TreeSet<>();
    for (Field item : items) {
      MapReader taint = item.asMap(TAINT_KEYS);
      String key = taint.requiredString("key");
      Field effectField = taint.required("effect");
      String effect = effectField.asChoice(TaintSpec.EFFECTS);
      if (!seen.add(key + ":" + effect)) {
        throw effectField.error(
            "duplicate taint "
                + Field.quote(key)
                + " with effect "
                + effect
                + " (taints are unique by key and effect)");
      }
      taints.add(new TaintSpec(key, taint.optString("value").orElse(""), effect));
    }
    return taints.build();
  }
}
