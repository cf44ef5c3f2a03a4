package io.gantry.scheduler.kube.kaisnapshot;

import static io.gantry.scheduler.kube.kaisnapshot.SimulateSnapshotTest.simulate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.sim.ScenarioRun;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's BindRequests are binds in flight: the pod counts as {@code Binding} on the
 * BindRequest's node and holds its resources there, unless the BindRequest failed.
 */
class BindRequestSnapshotTest {
  @TempDir Path dir;

  /**
   * Two 4-GPU nodes and three pending pods: p-1 (4 GPUs) with a BindRequest for node-b, p-2 (4
   * GPUs) and p-3 (1 GPU); {@code edit} changes the BindRequest.
   */
  private Path snapshot(Consumer<ObjectNode> edit) throws Exception {
    return snapshot(edit, p -> {});
  }

  /** {@link #snapshot(Consumer)} with {@code editPod} changing p-1. */
  private Path snapshot(Consumer<ObjectNode> edit, Consumer<ObjectNode> editPod) throws Exception {
    SnapshotZip zip = new SnapshotZip();
    zip.add("queues", SimulateSnapshotTest.queue("root", null));
    zip.add("queues", SimulateSnapshotTest.queue("team", "root"));
    SimulateSnapshotTest.nodes(zip);
    SimulateSnapshotTest.pod(zip, "p-1", 4, null, 1);
    editPod.accept((ObjectNode) zip.root.get("rawObjects").get("pods").get(0));
    SimulateSnapshotTest.pod(zip, "p-2", 4, null, 2);
    SimulateSnapshotTest.pod(zip, "p-3", 1, null, 3);
    ObjectNode bind = SnapshotZip.JSON.createObjectNode();
    bind.put("apiVersion", "scheduling.run.ai/v1alpha2").put("kind", "BindRequest");
    ObjectNode meta = bind.putObject("metadata").put("name", "p-1").put("namespace", "ns");
    meta.putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "v1")
        .put("kind", "Pod")
        .put("name", "p-1")
        .put("uid", "uid-p-1");
    bind.putObject("spec")
        .put("podName", "p-1")
        .put("selectedNode", "node-b")
        .put("receivedResourceType", "Regular")
        .putObject("receivedGPU")
        .put("count", 4)
        .put("portion", "1.00");
    bind.putObject("status").put("phase", "Pending");
    edit.accept(bind);
    zip.add("bindRequests", bind);
    return zip.write(dir.resolve("kai.zip"));
  }

  private static KaiSnapshotScenario.Result read(Path zip) throws ScenarioException {
    return KaiSnapshotScenario.of(zip.toString(), KaiSnapshotReader.read(zip), false);
  }

  private static TaskInfo task(KaiSnapshotScenario.Result read, String name) {
    return read.live().snapshot().jobs().stream()
        .flatMap(j -> j.tasks().stream())
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  /** {@code status node} of each pod after a run of the snapshot. */
  private static String ran(KaiSnapshotScenario.Result read, Path zip, String pod)
      throws ScenarioException {
    SimulationResult result =
        ScenarioRun.of(zip, ScenarioLoader.parse("kai.zip", read.scenario()), OptionalInt.empty())
            .result();
    TaskResult t =
        result.tasks().stream().filter(r -> r.task().equals(pod)).findFirst().orElseThrow();
    return t.status() + " " + t.node().orElse("-");
  }

  @Test
  void aPendingPodWithABindRequestIsBindingOnItsNodeAndHoldsIt() throws Exception {
    Path zip = snapshot(b -> {});

    KaiSnapshotScenario.Result read = read(zip);

    TaskInfo bound = task(read, "p-1");
    assertThat(bound.status()).isEqualTo(TaskStatus.BINDING);
    assertThat(bound.nodeName()).contains("node-b");
    assertThat(read.ignored()).isEmpty();
    // node-b is full: p-2 takes node-a and p-3 (1 GPU) finds no room
    assertThat(ran(read, zip, "p-1")).isEqualTo("Bound node-b");
    assertThat(ran(read, zip, "p-2")).isEqualTo("Binding node-a");
    assertThat(ran(read, zip, "p-3")).isEqualTo("Pending -");
  }

  @Test
  void aFractionHoldsTheBindRequestsGpuGroupWithItsPortion() throws Exception {
    Path zip =
        snapshot(
            b -> {
              ObjectNode spec = (ObjectNode) b.get("spec");
              spec.put("receivedResourceType", "Fraction");
              spec.putArray("selectedGPUGroups").add("group-1");
              ((ObjectNode) spec.get("receivedGPU")).put("count", 1).put("portion", "0.50");
            },
            pod -> {
              ((ObjectNode) pod.get("metadata").get("annotations")).put("gpu-fraction", "0.5");
              ((ObjectNode) pod.get("spec").get("containers").get(0)).remove("resources");
            });

    TaskInfo fraction = task(read(zip), "p-1");

    assertThat(fraction.status()).isEqualTo(TaskStatus.BINDING);
    assertThat(fraction.nodeName()).contains("node-b");
    assertThat(fraction.gpuGroups()).containsExactly("group-1");
    assertThat(fraction.gpuPortion()).isEqualTo(GpuAmount.ofHundredths(50));
  }

  @Test
  void aFailedBindRequestIsNotInFlight() throws Exception {
    Path zip = snapshot(b -> ((ObjectNode) b.get("status")).put("phase", "Failed"));

    KaiSnapshotScenario.Result read = read(zip);

    assertThat(task(read, "p-1").status()).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void aBindRequestOfAnotherPodOfTheSameNameDoesNotMatch() throws Exception {
    Path zip =
        snapshot(
            b ->
                ((ObjectNode) b.get("metadata").get("ownerReferences").get(0))
                    .put("uid", "uid-of-a-deleted-pod"));

    assertThat(task(read(zip), "p-1").status()).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void compareShowsTheBindRequestsNodeAsTheSnapshots() throws Exception {
    Path zip = snapshot(b -> {});

    SimulateSnapshotTest.Run run = simulate("simulate", zip.toString(), "--compare");

    assertThat(run.code()).as(run.err()).isZero();
    // from scratch Gantry packs p-1 on node-a, where the snapshot's BindRequest had node-b
    assertThat(run.out())
        .contains("  ns/p-1  node-b            node-a\n")
        .contains("compared 3 pods:");
  }

  @Test
  void aMalformedBindRequestIsOneLineNamingTheField() throws Exception {
    Path zip = snapshot(b -> ((ObjectNode) b.get("spec")).remove("selectedNode"));

    SimulateSnapshotTest.Run run = simulate("simulate", zip.toString());

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "error: "
                + zip
                + "!/snapshot.json: rawObjects.bindRequests[0].spec.selectedNode: required\n");
  }

  @Test
  void aPortionIsKaisTwoDecimalsOfADevice() throws Exception {
    Path zip =
        snapshot(b -> ((ObjectNode) b.get("spec").get("receivedGPU")).put("portion", "half"));

    assertThatThrownBy(() -> KaiSnapshotReader.read(zip))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            zip
                + "!/snapshot.json: rawObjects.bindRequests[0].spec.receivedGPU.portion: expected"
                + " a decimal such as \"0.50\", got half");
  }
}
