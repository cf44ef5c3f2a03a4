package io.gantry.scheduler.kube.kaisnapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.cli.GantryCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry simulate snapshot.zip [--compare]}: what it prints for a snapshot in which KAI
 * spread its pods where Gantry packs them.
 */
class SimulateSnapshotTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run simulate(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = GantryCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return new Run(cli.execute(args), out.toString(), err.toString());
  }

  /**
   * Two 4-GPU nodes; p-1 runs on node-b and p-2 on node-a (KAI spread them), p-3 (1 GPU) and p-4 (8
   * GPUs, more than a node) are pending.
   */
  private Path spreadSnapshot() throws Exception {
    SnapshotZip zip = new SnapshotZip();
    ((ObjectNode) zip.root.get("config"))
        .putArray("Tiers")
        .addObject()
        .putArray("Plugins")
        .addObject()
        .put("Name", "proportion");
    zip.add("queues", queue("root", null));
    zip.add("queues", queue("team", "root"));
    nodes(zip);
    pod(zip, "p-1", 1, "node-b", 1);
    pod(zip, "p-2", 1, "node-a", 2);
    pod(zip, "p-3", 1, null, 3);
    pod(zip, "p-4", 8, null, 4);
    return zip.write(dir.resolve("kai.zip"));
  }

  /** The ready 4-GPU nodes node-a and node-b. */
  static void nodes(SnapshotZip zip) {
    for (String name : new String[] {"node-a", "node-b"}) {
      ObjectNode node = SnapshotZip.JSON.createObjectNode();
      node.putObject("metadata").put("name", name);
      ObjectNode status = node.putObject("status");
      status
          .putObject("allocatable")
          .put("cpu", "64")
          .put("memory", "512Gi")
          .put("nvidia.com/gpu", "4");
      status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
      zip.add("nodes", node);
    }
  }

  static ObjectNode queue(String name, String parent) {
    ObjectNode q = SnapshotZip.JSON.createObjectNode();
    q.putObject("metadata").put("name", name);
    ObjectNode spec = q.putObject("spec");
    if (parent != null) {
      spec.put("parentQueue", parent);
    }
    for (String r : new String[] {"gpu", "cpu", "memory"}) {
      spec.with("resources")
          .putObject(r)
          .put("quota", -1)
          .put("limit", -1)
          .put("overQuotaWeight", 1);
    }
    return q;
  }

  static void pod(SnapshotZip zip, String name, int gpus, String node, int second) {
    String created = "2026-01-01T00:00:0" + second + "Z";
    ObjectNode pod = SnapshotZip.JSON.createObjectNode();
    pod.putObject("metadata")
        .put("name", name)
        .put("namespace", "ns")
        .put("uid", "uid-" + name)
        .put("creationTimestamp", created)
        .putObject("annotations")
        .put("pod-group-name", "pg-" + name);
    ObjectNode spec = pod.putObject("spec").put("schedulerName", "kai-scheduler");
    if (node != null) {
      spec.put("nodeName", node);
    }
    spec.putArray("containers")
        .addObject()
        .put("name", "main")
        .putObject("resources")
        .putObject("limits")
        .put("nvidia.com/gpu", Integer.toString(gpus));
    pod.putObject("status").put("phase", node == null ? "Pending" : "Running");
    zip.add("pods", pod);
    ObjectNode pg = SnapshotZip.JSON.createObjectNode();
    pg.putObject("metadata")
        .put("name", "pg-" + name)
        .put("namespace", "ns")
        .put("uid", "uid-pg-" + name)
        .put("creationTimestamp", created);
    pg.putObject("spec").put("minMember", 1).put("queue", "team");
    zip.add("podGroups", pg);
  }

  @Test
  void aSnapshotRunsLikeAScenarioAndSaysWhatItIgnores() throws Exception {
    Run run = simulate("simulate", spreadSnapshot().toString());

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.err())
        .isEqualTo(
            "note: "
                + dir.resolve("kai.zip")
                + ": not used, no meaning in Gantry: config.tiers plugins proportion\n");
    assertThat(run.out()).contains("p-3").contains("p-4").contains("node-a").contains("node-b");
  }

  @Test
  void compareListsThePodsWhoseNodeDiffersAndCountsEveryOne() throws Exception {
    Run run = simulate("simulate", spreadSnapshot().toString(), "--compare");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .endsWith(
            """
            Placements: the snapshot's against Gantry's from scratch
              POD     NODE IN SNAPSHOT  NODE BY GANTRY
              ns/p-1  node-b            node-a
              ns/p-3  -                 node-a
              compared 4 pods: 1 on the same node, 1 on another node, 0 placed only in the\
             snapshot, 1 placed only by Gantry, 1 pending in both

            """);
  }

  @Test
  void compareInJsonIsOneMoreLine() throws Exception {
    Run run = simulate("simulate", spreadSnapshot().toString(), "--compare", "--output", "json");

    assertThat(run.code()).as(run.err()).isZero();
    String[] lines = run.out().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[1])
        .isEqualTo(
            "{\"compare\":{\"compared\":4,\"sameNode\":1,\"otherNode\":1,\"snapshotOnly\":0,"
                + "\"gantryOnly\":1,\"pendingInBoth\":1,\"differences\":["
                + "{\"pod\":\"ns/p-1\",\"snapshotNode\":\"node-b\",\"gantryNode\":\"node-a\"},"
                + "{\"pod\":\"ns/p-3\",\"snapshotNode\":null,\"gantryNode\":\"node-a\"}]}}");
  }
}
