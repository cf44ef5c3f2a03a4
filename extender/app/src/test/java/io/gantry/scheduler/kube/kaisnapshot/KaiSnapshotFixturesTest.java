package io.gantry.scheduler.kube.kaisnapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.gantry.scheduler.sim.ScenarioRun;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A KAI-format snapshot built from KAI's documented manifests (src/test/resources/kai-manifests,
 * see its SOURCES.md): the Queues as written, each bare pod as KAI's podgrouper leaves it (the
 * {@code pod-group-name} annotation, a PodGroup {@code pg-<pod>-<uid>} of one member in the pod's
 * queue with its priority class), KAI's PriorityClasses, and one node of four GPUs. Its simulation
 * must match the same manifests run as a scenario's {@code workloads}
 * (kai-snapshot/fixtures-scenario.yaml): the same tasks with the same statuses on the same nodes,
 * and the same jobs.
 */
class KaiSnapshotFixturesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** The bare-pod manifests, in the order the scenario lists them, and their namespace. */
  private static final List<String[]> PODS =
      List.of(
          new String[] {"quickstart-pods-gpu-pod.yaml", "team-a"},
          new String[] {"quickstart-pods-cpu-only-pod.yaml", "team-a"},
          new String[] {"priority-example-train-priority-pod.yaml", "team-a"},
          new String[] {"priority-example-build-priority-pod.yaml", "team-a"},
          new String[] {"gpu-sharing-gpu-sharing.yaml", "team-a"},
          new String[] {"gpu-sharing-gpu-memory.yaml", "team-b"},
          new String[] {"gpu-sharing-gpu-sharing-non-default-container.yaml", "team-a"},
          new String[] {"gpu-sharing-mps-gpu-sharing-with-mps.yaml", "team-a"},
          new String[] {"gpu-sharing-gpu-sharing-init-container.yaml", "team-a"});

  @TempDir Path dir;

  @Test
  void theSnapshotSimulatesAsTheSameClusterWrittenAsAScenario() throws Exception {
    Path zip = fixtureSnapshot().write(dir.resolve("kai.zip"));

    KaiSnapshotScenario.Result read =
        KaiSnapshotScenario.of(zip.toString(), KaiSnapshotReader.read(zip), false);
    SimulationResult fromSnapshot =
        ScenarioRun.of(zip, ScenarioLoader.parse("kai.zip", read.scenario()), OptionalInt.empty())
            .result();
    Path scenario = Path.of(getClass().getResource("/kai-snapshot/fixtures-scenario.yaml").toURI());
    SimulationResult fromScenario = ScenarioRun.of(scenario, OptionalInt.empty()).result();

    assertThat(tasks(fromSnapshot)).isEqualTo(tasks(fromScenario));
    assertThat(jobs(fromSnapshot)).isEqualTo(jobs(fromScenario));
    // the cluster is small enough that some wait and some share a GPU: both outcomes are compared
    assertThat(tasks(fromSnapshot)).anyMatch(t -> t.startsWith("team-a/gpu-pod Binding node-0"));
    assertThat(tasks(fromSnapshot)).anyMatch(t -> t.contains(" Pending"));
    assertThat(tasks(fromSnapshot)).anyMatch(t -> t.endsWith("OptionalDouble[0.5]"));
    assertThat(read.ignored()).isEmpty();
  }

  /** Each task as {@code namespace/pod status node}, in the run's order. */
  private static List<String> tasks(SimulationResult r) {
    List<String> out = new ArrayList<>();
    for (TaskResult t : r.tasks()) {
      out.add(
          t.job().substring(0, t.job().indexOf('/') + 1)
              + t.task()
              + " "
              + t.status()
              + " "
              + t.node().orElse("-")
              + " "
              + t.gpuPortion());
    }
    return out;
  }

  private static List<String> jobs(SimulationResult r) {
    List<String> out = new ArrayList<>();
    r.jobs().forEach(j -> out.add(j.job() + " " + j.status() + " " + j.nodes() + " " + j.queue()));
    return out;
  }

  /** The snapshot KAI would take of the fixtures applied to a cluster with one 4-GPU node. */
  static SnapshotZip fixtureSnapshot() throws IOException {
    SnapshotZip zip = new SnapshotZip();
    List<JsonNode> queues = documents("quickstart-default-queues.yaml");
    // KAI's quickstart leaves default-queue's resources out, a cap of zero (kai-reference §2.1):
    // it gets its parent's, as the scenario writes it
    ((ObjectNode) queues.get(1).get("spec"))
        .set("resources", queues.get(0).get("spec").get("resources"));
    for (JsonNode q : queues) {
      zip.add("queues", (ObjectNode) q);
    }
    int[] priorities = {50, 75, 100, 125};
    String[] classes = {"train", "build-preemptible", "build", "inference"};
    for (int i = 0; i < classes.length; i++) {
      ObjectNode pc = SnapshotZip.JSON.createObjectNode();
      pc.put("apiVersion", "scheduling.k8s.io/v1").put("kind", "PriorityClass");
      pc.putObject("metadata").put("name", classes[i]);
      pc.put("value", priorities[i]);
      zip.add("priorityClasses", pc);
    }
    ObjectNode node = SnapshotZip.JSON.createObjectNode();
    node.put("apiVersion", "v1").put("kind", "Node");
    node.putObject("metadata")
        .put("name", "node-0")
        .put("creationTimestamp", "2026-01-01T00:00:00Z")
        .putObject("labels")
        .put("nvidia.com/gpu.memory", "81920");
    ObjectNode status = node.putObject("status");
    status
        .putObject("allocatable")
        .put("cpu", "64")
        .put("memory", "512Gi")
        .put("nvidia.com/gpu", "4")
        .put("pods", "110");
    status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
    zip.add("nodes", node);
    Instant created = Instant.parse("2026-01-01T01:00:00Z");
    for (String[] fixture : PODS) {
      ObjectNode pod = (ObjectNode) documents(fixture[0]).get(0);
      String namespace = fixture[1];
      ObjectNode meta = (ObjectNode) pod.get("metadata");
      String name = meta.get("name").asText();
      String uid =
          UUID.nameUUIDFromBytes((namespace + "/Pod/" + name).getBytes(StandardCharsets.UTF_8))
              .toString();
      String group = "pg-" + name + "-" + uid;
      meta.put("namespace", namespace).put("uid", uid).put("creationTimestamp", created.toString());
      (meta.has("annotations")
              ? (ObjectNode) meta.get("annotations")
              : meta.putObject("annotations"))
          .put("pod-group-name", group);
      pod.putObject("status").put("phase", "Pending");
      zip.add("pods", pod);
      JsonNode labels = meta.get("labels");
      ObjectNode pg = SnapshotZip.JSON.createObjectNode();
      pg.put("apiVersion", "scheduling.run.ai/v2alpha2").put("kind", "PodGroup");
      pg.putObject("metadata")
          .put("name", group)
          .put("namespace", namespace)
          .put("uid", uid)
          .put("creationTimestamp", created.toString());
      pg.putObject("spec")
          .put("minMember", 1)
          .put("queue", labels.get("kai.scheduler/queue").asText())
          .put(
              "priorityClassName",
              labels.has("priorityClassName") ? labels.get("priorityClassName").asText() : "train");
      zip.add("podGroups", pg);
      created = created.plusSeconds(1);
    }
    return zip;
  }

  private static List<JsonNode> documents(String fixture) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (InputStream in =
        KaiSnapshotFixturesTest.class.getResourceAsStream("/kai-manifests/" + fixture)) {
      YAML.readerFor(JsonNode.class).readValues(in).forEachRemaining(n -> out.add((JsonNode) n));
    }
    return out;
  }
}
