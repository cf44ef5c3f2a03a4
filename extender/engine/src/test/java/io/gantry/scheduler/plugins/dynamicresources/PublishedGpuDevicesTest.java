package io.gantry.scheduler.plugins.dynamicresources;

import static io.gantry.scheduler.testing.Dra.DRIVER;
import static io.gantry.scheduler.testing.Dra.device;
import static io.gantry.scheduler.testing.Dra.deviceFor;
import static io.gantry.scheduler.testing.Dra.perDeviceSlice;
import static io.gantry.scheduler.testing.Dra.slice;
import static io.gantry.scheduler.testing.Dra.sliceFor;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.ResourcePool;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.testing.Dra;
import io.gantry.scheduler.testing.Nodes;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GPU devices ResourceSlices add to cluster capacity (kai-reference §5.1): devices a GPU
 * DeviceClass selects, of the newest pool generation, once each, and only while a ready node
 * reaches them.
 */
class PublishedGpuDevicesTest {
  private static final String NIC_DRIVER = "nic.example.com";
  private static final DeviceClass NIC_CLASS =
      new DeviceClass(NIC_DRIVER, ImmutableList.of("driver==" + NIC_DRIVER), ImmutableList.of());

  record Case(
      String name,
      List<NodeInfo> nodes,
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      long expectedGpus) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo ready(String name) {
    return Nodes.node(name).cpu("8").label("rack", name.equals("n1") ? "a" : "b").build();
  }

  private static final List<NodeInfo> THREE_READY = List.of(ready("n1"), ready("n2"), ready("n3"));

  private static DeviceNodes rack(String rack) {
    return DeviceNodes.selector(
        NodeSelectorTerm.ofExpressions(
            NodeSelectorRequirement.of("rack", SelectorOperator.IN, rack)));
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a DRA-only node counts the GPUs its slice publishes",
            List.of(ready("n1")),
            List.of(Dra.gpuClass()),
            List.of(slice("n1", device("gpu-0"), device("gpu-1"))),
            2),
        new Case(
            "a not-ready node's slice adds nothing",
            List.of(ready("n1"), Nodes.node("n2").cpu("8").notReady().build()),
            List.of(Dra.gpuClass()),
            List.of(slice("n1", device("gpu-0")), slice("n2", device("gpu-0"), device("gpu-1"))),
            1),
        new Case(
            "a slice of a node the snapshot does not hold adds nothing",
            List.of(ready("n1")),
            List.of(Dra.gpuClass()),
            List.of(slice("gone", device("gpu-0"))),
            0),
        new Case(
            "devices only a non-GPU device class selects add nothing",
            List.of(ready("n1")),
            List.of(Dra.gpuClass(), NIC_CLASS),
            List.of(
                slice("n1", device("gpu-0")),
                new ResourceSlice(
                    "n1-nics",
                    NIC_DRIVER,
                    new ResourcePool("n1", 1, 1),
                    Optional.of(DeviceNodes.node("n1")),
                    ImmutableList.of(device("nic-0"), device("nic-1")),
                    ImmutableList.of())),
            1),
        new Case(
            "a device no GPU class's selectors select adds nothing",
            List.of(ready("n1")),
            List.of(
                new DeviceClass(
                    "gpu.example.com",
                    ImmutableList.of("driver==" + DRIVER, "model==h100"),
                    ImmutableList.of())),
            List.of(
                slice("n1", device("gpu-0", "model", "h100"), device("gpu-1", "model", "a100"))),
            1),
        new Case(
            "a GPU class whose selector fails selects nothing",
            List.of(ready("n1")),
            List.of(
                new DeviceClass(
                    "gpu.example.com", ImmutableList.of("fail:boom"), ImmutableList.of())),
            List.of(slice("n1", device("gpu-0"))),
            0),
        new Case(
            "without a GPU device class nothing counts",
            List.of(ready("n1")),
            List.of(NIC_CLASS),
            List.of(slice("n1", device("gpu-0"))),
            0),
        new Case(
            "only the newest generation of a pool counts",
            List.of(ready("n1")),
            List.of(Dra.gpuClass()),
            List.of(
                slice("n1", 1, 1, device("gpu-0"), device("gpu-1")),
                slice("n1", 2, 1, device("gpu-0"))),
            1),
        new Case(
            "an allNodes slice's devices count once with three ready nodes",
            THREE_READY,
            List.of(Dra.gpuClass()),
            List.of(sliceFor("fabric", DeviceNodes.ALL_NODES, device("gpu-0"), device("gpu-1"))),
            2),
        new Case(
            "an allNodes slice adds nothing without a ready node",
            List.of(Nodes.node("n1").cpu("8").notReady().build()),
            List.of(Dra.gpuClass()),
            List.of(sliceFor("fabric", DeviceNodes.ALL_NODES, device("gpu-0"))),
            0),
        new Case(
            "a nodeSelector slice's devices count once when ready nodes match",
            THREE_READY,
            List.of(Dra.gpuClass()),
            List.of(sliceFor("rack-b", rack("b"), device("gpu-0"), device("gpu-1"))),
            2),
        new Case(
            "a nodeSelector slice no ready node matches adds nothing",
            List.of(ready("n1"), Nodes.node("n2").cpu("8").label("rack", "b").notReady().build()),
            List.of(Dra.gpuClass()),
            List.of(sliceFor("rack-b", rack("b"), device("gpu-0"))),
            0),
        new Case(
            "perDeviceNodeSelection: each device by its own nodes, once",
            List.of(ready("n1"), ready("n2"), Nodes.node("n9").cpu("8").notReady().build()),
            List.of(Dra.gpuClass()),
            List.of(
                perDeviceSlice(
                    "mixed",
                    deviceFor("on-n1", DeviceNodes.node("n1")),
                    deviceFor("on-n9", DeviceNodes.node("n9")),
                    deviceFor("rack-b", rack("b")),
                    deviceFor("everywhere", DeviceNodes.ALL_NODES))),
            3));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void countsPublishedGpus(Case c) {
    long gpus =
        new PublishedGpuDevices(Dra.SELECTORS)
            .count(Dra.resources(c.classes(), c.slices(), List.of()), c.nodes());

    assertThat(gpus).isEqualTo(c.expectedGpus());
  }

  /**
   * One instance counts every cycle: what it keeps about a slice's devices must follow a change of
   * the GPU classes, and readiness is asked anew each time.
   */
  @Test
  void laterCountsFollowChangedClassesAndReadiness() {
    PublishedGpuDevices published = new PublishedGpuDevices(Dra.SELECTORS);
    List<ResourceSlice> slices =
        List.of(slice("n1", device("gpu-0", "model", "h100"), device("gpu-1", "model", "a100")));
    DeviceClass h100Only =
        new DeviceClass("gpu.example.com", ImmutableList.of("model==h100"), ImmutableList.of());
    List<NodeInfo> readyNode = List.of(ready("n1"));

    long first =
        published.count(Dra.resources(List.of(Dra.gpuClass()), slices, List.of()), readyNode);
    long narrowed = published.count(Dra.resources(List.of(h100Only), slices, List.of()), readyNode);
    long notReady =
        published.count(
            Dra.resources(List.of(h100Only), slices, List.of()),
            List.of(Nodes.node("n1").cpu("8").notReady().build()));

    assertThat(List.of(first, narrowed, notReady)).containsExactly(2L, 1L, 0L);
  }
}
