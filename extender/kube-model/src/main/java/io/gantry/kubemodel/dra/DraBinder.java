package io.gantry.kubemodel.dra;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.Namespaces;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import io.gantry.kubemodel.selector.AffinityBinder;
import io.gantry.scheduler.model.Quantity;
import io.gantry.scheduler.model.dra.CounterSet;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceCounterConsumption;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourcePool;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Binds the DRA sections: each entry is a {@code name}, a {@code namespace} for claims and
 * templates (default {@code default}), and the {@code spec} of its {@code resource.k8s.io/v1}
 * object as in a manifest. Fields the engine does not act on (admin access, consumable capacity,
 * binding conditions) are refused by name rather than ignored. A claim's {@code spec} is read by
 * {@link DraClaimBinder}; opaque {@code config} by {@link DraConfigBinder}, and passed on unread.
 */
public final class DraBinder {
  private static final ImmutableSet<String> NAMED_KEYS = ImmutableSet.of("name", "spec");
  private static final ImmutableSet<String> NAMESPACED_KEYS =
      ImmutableSet.of("name", "namespace", "spec");
  private static final ImmutableSet<String> CLAIM_KEYS =
      ImmutableSet.of("name", "namespace", "labels", "spec");
  private static final ImmutableSet<String> CLASS_SPEC_KEYS =
      ImmutableSet.of("selectors", "config");
  private static final ImmutableSet<String> SELECTOR_KEYS = ImmutableSet.of("cel");
  private static final ImmutableSet<String> CEL_KEYS = ImmutableSet.of("expression");
  private static final ImmutableSet<String> SLICE_SPEC_KEYS =
      ImmutableSet.of(
          "driver",
          "pool",
          "nodeName",
          "nodeSelector",
          "allNodes",
          "perDeviceNodeSelection",
          "devices",
          "sharedCounters");
  private static final ImmutableSet<String> COUNTER_SET_KEYS = ImmutableSet.of("name", "counters");
  private static final ImmutableSet<String> CONSUMPTION_KEYS =
      ImmutableSet.of("counterSet", "counters");
  private static final ImmutableSet<String> COUNTER_KEYS = ImmutableSet.of("value");
  private static final ImmutableSet<String> POOL_KEYS =
      ImmutableSet.of("name", "generation", "resourceSliceCount");
  private static final ImmutableSet<String> DEVICE_KEYS =
      ImmutableSet.of(
          "name",
          "attributes",
          "capacity",
          "nodeName",
          "nodeSelector",
          "allNodes",
          "taints",
          "consumesCounters");
  private static final ImmutableSet<String> TAINT_KEYS =
      ImmutableSet.of("key", "value", "effect", "timeAdded");

  /** The effects a device taint may have in resource.k8s.io/v1. */
  private static final ImmutableList<String> DEVICE_TAINT_EFFECTS =
      ImmutableList.of("NoSchedule", "NoExecute");

  /** Kubernetes' {@code DeviceTaintsMaxLength}. */
  private static final int MAX_TAINTS = 4;

  private static final ImmutableSet<String> NODE_SELECTOR_KEYS =
      ImmutableSet.of("nodeSelectorTerms");
  private static final ImmutableSet<String> ATTRIBUTE_KEYS =
      ImmutableSet.of("int", "bool", "string", "version");
  private static final ImmutableSet<String> CAPACITY_KEYS = ImmutableSet.of("value");

  private DraBinder() {}

  public static DraSpec bind(MapReader top) throws ScenarioException {
    return new DraSpec(
        deviceClasses(top.list("deviceClasses")),
        slices(top.list("resourceSlices")),
        claims(top.list("resourceClaims"), "ResourceClaim", false),
        claims(top.list("resourceClaimTemplates"), "ResourceClaimTemplate", true));
  }

  private static List<DeviceClass> deviceClasses(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<DeviceClass> out = ImmutableList.builder();
    UniqueNames names = new UniqueNames("DeviceClass");
    for (Field item : items) {
      MapReader entry = item.asMap(NAMED_KEYS);
      out.add(deviceClass(names.take(entry.required("name")), entry.required("spec")));
    }
    return out.build();
  }

  /** A DeviceClass from the {@code spec} of its manifest. */
  static DeviceClass deviceClass(String name, Field specField) throws ScenarioException {
    MapReader spec = specField.asMap(CLASS_SPEC_KEYS);
    return new DeviceClass(
        name, selectors(spec.list("selectors")), DraConfigBinder.classConfig(spec.list("config")));
  }

  static ImmutableList<String> selectors(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<String> out = ImmutableList.builder();
    for (Field item : items) {
      MapReader cel = item.asMap(SELECTOR_KEYS).required("cel").asMap(CEL_KEYS);
      out.add(cel.required("expression").asNonEmptyString());
    }
    return out.build();
  }

  private static List<ResourceSlice> slices(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<ResourceSlice> out = ImmutableList.builder();
    UniqueNames names = new UniqueNames("ResourceSlice");
    for (Field item : items) {
      MapReader entry = item.asMap(NAMED_KEYS);
      out.add(slice(names.take(entry.required("name")), entry.required("spec")));
    }
    return out.build();
  }

  /** A ResourceSlice from the {@code spec} of its manifest. */
  static ResourceSlice slice(String name, Field specField) throws ScenarioException {
    MapReader spec = specField.asMap(SLICE_SPEC_KEYS);
    String driver = spec.requiredString("driver");
    MapReader pool = spec.required("pool").asMap(POOL_KEYS);
    ResourcePool resourcePool =
        new ResourcePool(
            pool.requiredString("name"),
            pool.required("generation").asLong(0),
            pool.required("resourceSliceCount").asLong(1));
    boolean perDevice = spec.booleanOr("perDeviceNodeSelection", false);
    Optional<DeviceNodes> sliceNodes =
        perDevice
            ? Optional.empty()
            : Optional.of(
                nodes(
                    spec,
                    specField,
                    "exactly one of nodeName, nodeSelector, allNodes and"
                        + " perDeviceNodeSelection must be set"));
    if (perDevice && nodesGiven(spec) > 0) {
      throw specField.error(
          "exactly one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection must be set");
    }
    ImmutableList.Builder<DraDevice> devices = ImmutableList.builder();
    UniqueNames deviceNames = new UniqueNames("device");
    for (Field d : spec.list("devices")) {
      MapReader device = d.asMap(DEVICE_KEYS);
      String deviceName = deviceNames.take(device.required("name"));
      Optional<DeviceNodes> ownNodes = Optional.empty();
      if (perDevice) {
        ownNodes =
            Optional.of(
                nodes(
                    device,
                    d,
                    "exactly one of nodeName, nodeSelector and allNodes must be set, as the"
                        + " slice sets perDeviceNodeSelection"));
      } else if (nodesGiven(device) > 0) {
        throw d.error(
            "nodeName, nodeSelector and allNodes of a device need perDeviceNodeSelection: true on"
                + " the slice");
      }
      devices.add(
          new DraDevice(
              deviceName,
              attributes(device.optional("attributes")),
              capacity(device.optional("capacity")),
              ownNodes,
              taints(device.optional("taints")),
              consumesCounters(device.list("consumesCounters"))));
    }
    return new ResourceSlice(
        name, driver, resourcePool, sliceNodes, devices.build(), sharedCounters(spec));
  }

  /** A device's taints: a key, an optional value, NoSchedule or NoExecute, and when added. */
  private static ImmutableList<Taint> taints(Optional<Field> field) throws ScenarioException {
    if (field.isEmpty()) {
      return ImmutableList.of();
    }
    List<Field> items = field.get().asList();
    if (items.size() > MAX_TAINTS) {
      throw field.get().error("must list at most " + MAX_TAINTS + " taints, got " + items.size());
    }
    ImmutableList.Builder<Taint> out = ImmutableList.builder();
    for (Field item : items) {
      MapReader taint = item.asMap(TAINT_KEYS);
      // when the taint was added matters only to eviction, which this scheduler leaves to others
      taint.optString("timeAdded");
      out.add(
          new Taint(
              taint.requiredString("key"),
              taint.optString("value").orElse(""),
              TaintEffect.parse(taint.required("effect").asChoice(DEVICE_TAINT_EFFECTS))));
    }
    return out.build();
  }

  private static ImmutableList<CounterSet> sharedCounters(MapReader spec) throws ScenarioException {
    ImmutableList.Builder<CounterSet> out = ImmutableList.builder();
    UniqueNames names = new UniqueNames("counter set");
    for (Field item : spec.list("sharedCounters")) {
      MapReader set = item.asMap(COUNTER_SET_KEYS);
      String name = names.take(set.required("name"));
      out.add(new CounterSet(name, counters(set.required("counters"))));
    }
    return out.build();
  }

  private static ImmutableList<DeviceCounterConsumption> consumesCounters(List<Field> items)
      throws ScenarioException {
    ImmutableList.Builder<DeviceCounterConsumption> out = ImmutableList.builder();
    for (Field item : items) {
      MapReader consumption = item.asMap(CONSUMPTION_KEYS);
      out.add(
          new DeviceCounterConsumption(
              consumption.requiredString("counterSet"),
              counters(consumption.required("counters"))));
    }
    return out.build();
  }

  /** Counters by name, each {@code {value: <quantity>}}, as numbers. */
  private static ImmutableSortedMap<String, BigDecimal> counters(Field field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, BigDecimal> out = ImmutableSortedMap.naturalOrder();
    for (Field c : field.asOpenMap().fields()) {
      Field value = c.asMap(COUNTER_KEYS).required("value");
      try {
        out.put(c.key(), Quantity.parse(value.asString()));
      } catch (IllegalArgumentException e) {
        throw value.error(e.getMessage());
      }
    }
    return out.build();
  }

  /** How many of nodeName, nodeSelector and allNodes (when true) the map sets. */
  private static int nodesGiven(MapReader map) throws ScenarioException {
    return (map.optString("nodeName").isPresent() ? 1 : 0)
        + (map.optional("nodeSelector").isPresent() ? 1 : 0)
        + (map.booleanOr("allNodes", false) ? 1 : 0);
  }

  /** The one of nodeName, nodeSelector and allNodes that the map sets. */
  private static DeviceNodes nodes(MapReader map, Field owner, String problem)
      throws ScenarioException {
    if (nodesGiven(map) != 1) {
      throw owner.error(problem);
    }
    Optional<String> nodeName = map.optString("nodeName");
    if (nodeName.isPresent()) {
      return DeviceNodes.node(nodeName.get());
    }
    Optional<Field> selector = map.optional("nodeSelector");
    if (selector.isPresent()) {
      return DeviceNodes.selector(nodeSelector(selector.get()));
    }
    return DeviceNodes.ALL_NODES;
  }

  /** A NodeSelector of a slice or device, which Kubernetes allows exactly one term. */
  private static NodeSelectorTerm nodeSelector(Field field) throws ScenarioException {
    ImmutableList<NodeSelectorTerm> terms = nodeSelectorTerms(field);
    if (terms.size() != 1) {
      throw field.error("nodeSelectorTerms must hold exactly one term, got " + terms.size());
    }
    return terms.get(0);
  }

  /** The terms of a NodeSelector, at least one; a node matches when one of them matches. */
  static ImmutableList<NodeSelectorTerm> nodeSelectorTerms(Field field) throws ScenarioException {
    Field terms = field.asMap(NODE_SELECTOR_KEYS).required("nodeSelectorTerms");
    List<Field> items = terms.asList();
    if (items.isEmpty()) {
      throw terms.error("must list at least one term");
    }
    ImmutableList.Builder<NodeSelectorTerm> out = ImmutableList.builder();
    for (Field item : items) {
      out.add(AffinityBinder.nodeSelectorTerm(item).toTerm());
    }
    return out.build();
  }

  private static ImmutableSortedMap<String, DeviceAttribute> attributes(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, DeviceAttribute> out = ImmutableSortedMap.naturalOrder();
    if (field.isEmpty()) {
      return out.build();
    }
    for (Field a : field.get().asOpenMap().fields()) {
      MapReader value = a.asMap(ATTRIBUTE_KEYS);
      List<Field> given = value.fields();
      if (given.size() != 1) {
        throw a.error("exactly one of int, bool, string and version must be set");
      }
      Field v = given.get(0);
      out.put(
          a.key(),
          switch (v.key()) {
            case "int" -> DeviceAttribute.ofInt(v.asLong(Long.MIN_VALUE));
            case "bool" -> DeviceAttribute.ofBool(v.asBoolean());
            case "string" -> DeviceAttribute.ofString(v.asString());
            default -> version(v);
          });
    }
    return out.build();
  }

  private static DeviceAttribute version(Field v) throws ScenarioException {
    String text = v.asNonEmptyString();
    if (!text.matches("(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)([-+].*)?")) {
      throw v.error("expected a semantic version such as 1.2.3, got " + Field.quote(text));
    }
    return DeviceAttribute.ofVersion(text);
  }

  private static ImmutableSortedMap<String, String> capacity(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, String> out = ImmutableSortedMap.naturalOrder();
    if (field.isEmpty()) {
      return out.build();
    }
    for (Field c : field.get().asOpenMap().fields()) {
      Field value = c.asMap(CAPACITY_KEYS).required("value");
      String text = value.asString();
      try {
        Quantity.parse(text);
      } catch (IllegalArgumentException e) {
        throw value.error(e.getMessage());
      }
      out.put(c.key(), text);
    }
    return out.build();
  }

  private static List<ResourceClaim> claims(List<Field> items, String kind, boolean template)
      throws ScenarioException {
    ImmutableList.Builder<ResourceClaim> out = ImmutableList.builder();
    UniqueNames names = new UniqueNames(kind);
    for (Field item : items) {
      MapReader entry = item.asMap(template ? NAMESPACED_KEYS : CLAIM_KEYS);
      Field nameField = entry.required("name");
      String name = nameField.asNonEmptyString();
      String namespace = entry.optString("namespace").orElse(Namespaces.DEFAULT);
      names.add(nameField, namespace + "/" + name);
      out.add(
          DraClaimBinder.claim(
              namespace, name, entry.stringMap("labels"), entry.required("spec"), template));
    }
    return out.build();
  }
}
