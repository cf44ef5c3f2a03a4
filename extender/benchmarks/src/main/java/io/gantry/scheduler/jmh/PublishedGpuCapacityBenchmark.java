package io.gantry.scheduler.jmh;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.GpuTopology;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourcePool;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.plugins.dynamicresources.PublishedGpuDevices;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The DRA GPU devices cluster capacity counts, at the design scale (5,000 nodes, each publishing 8
 * GPUs in one ResourceSlice, one GPU DeviceClass with a CEL selector): {@code firstCycle} evaluates
 * every selector, as a scheduler's first cycle or a cycle after the classes changed does; {@code
 * laterCycle} reuses what the last count learned about the same slices.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PublishedGpuCapacityBenchmark {
  private static final int NODES = 5_000;
  private static final int GPUS_PER_NODE = 8;
  private static final String DRIVER = "gpu.gantry.io";

  private final CelDeviceSelectors selectors = new CelDeviceSelectors();
  private final PublishedGpuDevices shared = new PublishedGpuDevices(selectors);
  private DynamicResources resources;
  private List<NodeInfo> nodes;

  @Setup
  public void setUp() {
    List<NodeInfo> n = new ArrayList<>();
    ImmutableList.Builder<ResourceSlice> slices = ImmutableList.builder();
    for (int i = 0; i < NODES; i++) {
      String name = "node-" + i;
      n.add(
          new NodeInfo(
              name,
              ImmutableSortedMap.of(),
              ImmutableList.of(),
              Resources.of(128_000, 1L << 40, GpuAmount.ZERO),
              81_920,
              true,
              110,
              false,
              true,
              GpuTopology.NONE));
      ImmutableList.Builder<DraDevice> devices = ImmutableList.builder();
      for (int g = 0; g < GPUS_PER_NODE; g++) {
        devices.add(
            new DraDevice(
                "gpu-" + g,
                Map.of(
                    "productName",
                    DeviceAttribute.ofString("NVIDIA H100 80GB HBM3"),
                    "index",
                    DeviceAttribute.ofInt(g))));
      }
      slices.add(
          ResourceSlice.onNode(
              name + "-gpus", DRIVER, new ResourcePool(name, 1, 1), name, devices.build()));
    }
    nodes = ImmutableList.copyOf(n);
    resources =
        new DynamicResources(
            ImmutableSortedMap.of(
                DRIVER,
                new DeviceClass(
                    DRIVER,
                    ImmutableList.of("device.driver == '" + DRIVER + "'"),
                    ImmutableList.of())),
            slices.build(),
            ImmutableSortedMap.of());
    shared.count(resources, nodes);
  }

  @Benchmark
  public long firstCycle() {
    return new PublishedGpuDevices(selectors).count(resources, nodes);
  }

  @Benchmark
  public long laterCycle() {
    return shared.count(resources, nodes);
  }
}
