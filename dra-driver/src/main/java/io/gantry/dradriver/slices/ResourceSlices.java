package io.gantry.dradriver.slices;

import io.gantry.dradriver.DriverNames;
import io.gantry.dradriver.devices.SliceDevice;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1DeviceCapacity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1ResourcePool;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The driver's ResourceSlice for one node (resource.k8s.io/v1, protocols.md §4.1): one slice named
 * {@code <node>-gpu.gantry.io} holding the whole pool, named after the node, with one device per
 * GPU. Attributes {@code uuid}, {@code productName}, {@code architecture} (when known), {@code
 * index}, {@code nvlinkDomain} (when the GPU is in one) and {@code
 * resource.kubernetes.io/pciBusID}; capacity {@code memory} in bytes. The Node owns the slice, so
 * it goes when the node does.
 */
public final class ResourceSlices {
  static final String PCI_BUS_ID = "resource.kubernetes.io/pciBusID";

  private ResourceSlices() {}

  /** The slice's name for {@code node}. */
  public static String name(String node) {
    return node + "-" + DriverNames.DRIVER;
  }

  /** The slice of {@code node} (owned by the Node with {@code nodeUid}) at {@code generation}. */
  public static V1ResourceSlice of(
      String node, String nodeUid, long generation, List<SliceDevice> devices) {
    return new V1ResourceSlice()
        .apiVersion("resource.k8s.io/v1")
        .kind("ResourceSlice")
        .metadata(
            new V1ObjectMeta()
                .name(name(node))
                .ownerReferences(
                    List.of(
                        new V1OwnerReference()
                            .apiVersion("v1")
                            .kind("Node")
                            .name(node)
                            .uid(nodeUid)
                            .controller(true))))
        .spec(spec(node, generation, devices));
  }

  /** The spec: driver, this node, a pool of one slice at {@code generation}, the devices. */
  public static V1ResourceSliceSpec spec(String node, long generation, List<SliceDevice> devices) {
    return new V1ResourceSliceSpec()
        .driver(DriverNames.DRIVER)
        .nodeName(node)
        .pool(new V1ResourcePool().name(node).generation(generation).resourceSliceCount(1L))
        .devices(devices.stream().map(ResourceSlices::device).toList())
        .sharedCounters(null);
  }

  static V1Device device(SliceDevice gpu) {
    // TreeMaps: the same devices serialise to the same JSON, which is how a change is detected.
    Map<String, V1DeviceAttribute> attributes = new TreeMap<>();
    attributes.put("uuid", text(gpu.uuid()));
    attributes.put("productName", text(gpu.productName()));
    gpu.architecture().ifPresent(a -> attributes.put("architecture", text(a)));
    attributes.put("index", integer(gpu.index()));
    gpu.nvlinkDomain().ifPresent(d -> attributes.put("nvlinkDomain", text(d)));
    attributes.put(PCI_BUS_ID, text(gpu.pciBusId()));
    Map<String, V1DeviceCapacity> capacity = new TreeMap<>();
    capacity.put(
        "memory",
        new V1DeviceCapacity()
            .value(new Quantity(BigDecimal.valueOf(gpu.memoryBytes()), Quantity.Format.BINARY_SI)));
    // Unused lists set to null: client-java writes empty lists otherwise (protocols.md §7.1).
    return new V1Device()
        .name(gpu.name())
        .attributes(attributes)
        .capacity(capacity)
        .consumesCounters(null)
        .nodeAllocatableResourceMappings(null)
        .taints(null)
        .bindingConditions(null)
        .bindingFailureConditions(null);
  }

  private static V1DeviceAttribute text(String value) {
    return emptyLists(new V1DeviceAttribute().string(value));
  }

  private static V1DeviceAttribute integer(long value) {
    return emptyLists(new V1DeviceAttribute()._int(value));
  }

  /** A 1.34 server accepts only the single-value forms: exactly one value per attribute. */
  private static V1DeviceAttribute emptyLists(V1DeviceAttribute attribute) {
    return attribute.bools(null).ints(null).strings(null).versions(null);
  }
}
