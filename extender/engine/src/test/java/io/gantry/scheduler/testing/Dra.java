package io.gantry.scheduler.testing;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.api.dra.SelectorOutcome;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.CounterSet;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceConstraint;
import io.gantry.scheduler.model.dra.DeviceCounterConsumption;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourcePool;
import io.gantry.scheduler.model.dra.ResourceSlice;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * DRA values for engine tests, and a hand-written selector evaluator: an expression {@code
 * attr==value} matches devices whose attribute {@code attr} has that string form, {@code fail:...}
 * fails, anything else is unknown and fails too.
 */
public final class Dra {
  public static final String DRIVER = "gpu.example.com";
  public static final String GPU_CLASS = "gpu.example.com";

  private Dra() {}

  /** {@code attr==value}: the device's attribute prints as {@code value}. */
  public static final DeviceSelectorEvaluator SELECTORS =
      (expression, driver, device) -> {
        if (expression.startsWith("fail:")) {
          return SelectorOutcome.error(expression.substring("fail:".length()));
        }
        int eq = expression.indexOf("==");
        if (eq < 0) {
          return SelectorOutcome.error("unknown test expression");
        }
        String attribute = expression.substring(0, eq);
        String value = expression.substring(eq + 2);
        if (attribute.equals("driver")) {
          return SelectorOutcome.of(driver.equals(value));
        }
        return SelectorOutcome.of(
            device.attribute(driver, attribute).map(a -> a.value().equals(value)).orElse(false));
      };

  /** A device with string attributes given as {@code key, value, key, value...}. */
  public static DraDevice device(String name, String... attributes) {
    Map<String, DeviceAttribute> attrs = new TreeMap<>();
    for (int i = 0; i < attributes.length; i += 2) {
      attrs.put(attributes[i], DeviceAttribute.ofString(attributes[i + 1]));
    }
    return new DraDevice(name, attrs);
  }

  public static ResourceSlice slice(
      String node, long generation, long count, DraDevice... devices) {
    return ResourceSlice.onNode(
        node + "-g" + generation + "-" + devices.length,
        DRIVER,
        new ResourcePool(node, generation, count),
        node,
        ImmutableList.copyOf(devices));
  }

  public static ResourceSlice slice(String node, DraDevice... devices) {
    return slice(node, 1, 1, devices);
  }

  /** A slice of pool {@code pool} that {@code nodes} reach, not local to one node. */
  public static ResourceSlice sliceFor(String pool, DeviceNodes nodes, DraDevice... devices) {
    return new ResourceSlice(
        pool,
        DRIVER,
        new ResourcePool(pool, 1, 1),
        Optional.of(nodes),
        ImmutableList.copyOf(devices),
        ImmutableList.of());
  }

  /**
   * A slice of pool {@code pool} under {@code perDeviceNodeSelection}: each device says its nodes.
   */
  public static ResourceSlice perDeviceSlice(String pool, DraDevice... devices) {
    return new ResourceSlice(
        pool,
        DRIVER,
        new ResourcePool(pool, 1, 1),
        Optional.empty(),
        ImmutableList.copyOf(devices),
        ImmutableList.of());
  }

  /** A device with its own node selection, for a slice with {@code perDeviceNodeSelection}. */
  public static DraDevice deviceFor(String name, DeviceNodes nodes) {
    return new DraDevice(
        name,
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        Optional.of(nodes),
        ImmutableList.of(),
        ImmutableList.of());
  }

  /** A partition of the GPU gpu-0 that takes {@code memoryGi} of its shared memory counter. */
  public static DraDevice partition(String name, long memoryGi) {
    return new DraDevice(
        name,
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        Optional.empty(),
        ImmutableList.of(),
        ImmutableList.of(
            new DeviceCounterConsumption(
                "gpu-0", ImmutableSortedMap.of("memory", BigDecimal.valueOf(memoryGi << 30)))));
  }

  /**
   * The node's pool with one GPU of 80Gi that its partitions share: the whole GPU ({@code whole})
   * and two halves ({@code half-0}, {@code half-1}).
   */
  public static ResourceSlice partitionedGpu(String node) {
    return new ResourceSlice(
        node + "-partitions",
        DRIVER,
        new ResourcePool(node, 1, 1),
        Optional.of(DeviceNodes.node(node)),
        ImmutableList.of(partition("whole", 80), partition("half-0", 40), partition("half-1", 40)),
        ImmutableList.of(
            new CounterSet(
                "gpu-0", ImmutableSortedMap.of("memory", BigDecimal.valueOf(80L << 30)))));
  }

  public static DeviceClass gpuClass() {
    return new DeviceClass(GPU_CLASS, ImmutableList.of("driver==" + DRIVER), ImmutableList.of());
  }

  public static DeviceSubRequest exactly(String name, long count, String... selectors) {
    return new DeviceSubRequest(
        name,
        GPU_CLASS,
        ImmutableList.copyOf(selectors),
        AllocationMode.EXACT_COUNT,
        count,
        ImmutableList.of());
  }

  public static DeviceSubRequest all(String name, String... selectors) {
    return new DeviceSubRequest(
        name,
        GPU_CLASS,
        ImmutableList.copyOf(selectors),
        AllocationMode.ALL,
        0,
        ImmutableList.of());
  }

  public static ResourceClaim claim(String name, DeviceSubRequest request) {
    return claim(name, List.of(DeviceRequest.exactly(request.name(), request)), List.of());
  }

  public static ResourceClaim claim(
      String name, List<DeviceRequest> requests, List<DeviceConstraint> constraints) {
    return new ResourceClaim(
        "ns",
        name,
        ImmutableSortedMap.of(),
        ImmutableList.copyOf(requests),
        ImmutableList.copyOf(constraints),
        ImmutableList.of(),
        Optional.empty(),
        ImmutableList.of());
  }

  /** The claim with the given metadata labels. */
  public static ResourceClaim labelled(ResourceClaim claim, Map<String, String> labels) {
    return new ResourceClaim(
        claim.namespace(),
        claim.name(),
        ImmutableSortedMap.copyOf(labels),
        claim.requests(),
        claim.constraints(),
        claim.config(),
        claim.allocation(),
        claim.reservedFor());
  }

  public static DynamicResources resources(
      List<DeviceClass> classes, List<ResourceSlice> slices, List<ResourceClaim> claims) {
    ImmutableSortedMap.Builder<String, DeviceClass> c = ImmutableSortedMap.naturalOrder();
    classes.forEach(x -> c.put(x.name(), x));
    ImmutableSortedMap.Builder<String, ResourceClaim> r = ImmutableSortedMap.naturalOrder();
    claims.forEach(x -> r.put(x.key(), x));
    return new DynamicResources(c.build(), ImmutableList.copyOf(slices), r.build());
  }
}
