package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.DurationBound;
import io.gantry.kubemodel.read.Field.QuantityUnit;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import io.gantry.kubemodel.selector.AffinityBinder;
import io.gantry.kubemodel.selector.TolerationBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Binds one entry of a job's {@code tasks}. */
final class TaskBinder {
  static final int MIN_REPLICAS = 0;

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "name",
          "replicas",
          "subGroup",
          "resources",
          "gpuFraction",
          "gpuMemory",
          "gpuFractionNumDevices",
          "status",
          "node",
          "gpuGroups",
          "gpuDevices",
          "startedAt",
          "taskPriority",
          "labels",
          "annotations",
          "nodeSelector",
          "tolerations",
          "affinity",
          "resourceClaims");
  private static final ImmutableSet<String> CLAIM_KEYS =
      ImmutableSet.of("name", "resourceClaimName", "resourceClaimTemplateName");

  private TaskBinder() {}

  static TaskSpec bind(Field item, Catalog catalog, SubGroupTree subGroups, UniqueNames names)
      throws ScenarioException {
    MapReader task = item.asMap(KEYS);
    Field nameField = task.required("name");
    String name = nameField.asNonEmptyString();
    int replicas = task.intOr("replicas", 1, MIN_REPLICAS);
    for (String expanded : Names.expand(name, replicas)) {
      names.add(nameField, expanded);
    }
    // KAI's rules for these (range, which go together) are the engine's GpuSharingAnnotations,
    // applied when the scenario is compiled
    OptionalDouble gpuFraction = task.optDouble("gpuFraction", -Double.MAX_VALUE);
    OptionalLong gpuMemory = task.optLong("gpuMemory", Long.MIN_VALUE);
    boolean fractional = gpuFraction.isPresent() || gpuMemory.isPresent();
    OptionalInt numDevices = task.optInt("gpuFractionNumDevices", Integer.MIN_VALUE);
    Optional<Field> statusField = task.optional("status");
    InitialTaskStatus status =
        statusField.isPresent()
            ? statusField.get().asEnum(InitialTaskStatus.values(), InitialTaskStatus::yamlName)
            : InitialTaskStatus.PENDING;
    Optional<String> node = node(task, catalog, status);
    List<String> gpuGroups = task.stringList("gpuGroups");
    if (!gpuGroups.isEmpty() && !fractional) {
      throw task.required("gpuGroups")
          .error("only a task with gpuFraction or gpuMemory has gpuGroups");
    }
    if (!gpuGroups.isEmpty() && node.isEmpty()) {
      throw task.required("gpuGroups").error("requires node");
    }
    List<Integer> gpuDevices = new ArrayList<>();
    for (Field index : task.list("gpuDevices")) {
      gpuDevices.add(index.asInt(0));
    }
    if (!gpuDevices.isEmpty() && node.isEmpty()) {
      throw task.required("gpuDevices").error("requires node");
    }

    return new TaskSpec(
        name,
        replicas,
        subGroup(task.optional("subGroup"), subGroups),
        resources(task.optional("resources")),
        gpuFraction,
        gpuMemory,
        numDevices,
        status,
        node,
        gpuGroups,
        task.optDuration("startedAt", DurationBound.ANY),
        task.optInt("taskPriority", Integer.MIN_VALUE),
        task.stringMap("labels"),
        task.stringMap("annotations"),
        task.stringMap("nodeSelector"),
        TolerationBinder.tolerations(task.list("tolerations"), TolerationBinder.TOLERATION_KEYS),
        AffinityBinder.bind(task.optional("affinity")),
        Optional.empty(),
        item.path(),
        task.line(),
        task.fieldLines(),
        resourceClaims(task.list("resourceClaims")),
        gpuDevices);
  }

  /** A pod's {@code spec.resourceClaims}; the claims they name are checked at compile time. */
  private static List<PodClaimSpec> resourceClaims(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<PodClaimSpec> out = ImmutableList.builder();
    UniqueNames names = new UniqueNames("pod claim");
    for (Field item : items) {
      MapReader claim = item.asMap(CLAIM_KEYS);
      String name = names.take(claim.required("name"));
      Optional<String> claimName = claim.optString("resourceClaimName");
      Optional<String> templateName = claim.optString("resourceClaimTemplateName");
      if (claimName.isPresent() == templateName.isPresent()) {
        throw item.error(
            "exactly one of resourceClaimName and resourceClaimTemplateName must be set");
      }
      out.add(new PodClaimSpec(name, claimName, templateName, item.path(), item.line()));
    }
    return out.build();
  }

  private static Optional<String> node(MapReader task, Catalog catalog, InitialTaskStatus status)
      throws ScenarioException {
    Optional<Field> field = task.optional("node");
    if (field.isEmpty()) {
      if (status.requiresNode()) {
        throw task.error(
            "node",
            task.required("status").line(),
            "is required for a task with status " + status.yamlName());
      }
      return Optional.empty();
    }
    String node = field.get().asNonEmptyString();
    if (!catalog.hasNode(node)) {
      throw field.get().error("unknown node " + Field.quote(node));
    }
    return Optional.of(node);
  }

  private static Optional<String> subGroup(Optional<Field> field, SubGroupTree subGroups)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    String name = field.get().asNonEmptyString();
    if (!subGroups.contains(name)) {
      throw field.get().error("unknown subgroup " + Field.quote(name));
    }
    if (!subGroups.isLeaf(name)) {
      throw field
          .get()
          .error(
              "subgroup " + Field.quote(name) + " has child subgroups; tasks go to leaf subgroups");
    }
    return Optional.of(name);
  }

  /** CPU in millicores; memory and every other resource as a whole number (bytes, devices). */
  private static ImmutableSortedMap<String, Long> resources(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, Long> resources = ImmutableSortedMap.naturalOrder();
    if (field.isPresent()) {
      for (Field resource : field.get().asOpenMap().fields()) {
        QuantityUnit unit = resource.key().equals("cpu") ? QuantityUnit.MILLIS : QuantityUnit.WHOLE;
        resources.put(resource.key(), resource.asQuantity(unit));
      }
    }
    return resources.build();
  }
}
