package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SimulateCommandTest {
  private static final Path QUICKSTART = Path.of("..", "..", "examples", "quickstart.yaml");

  @TempDir Path dir;

  @Test
  void textOutputShowsPlacementsWhyPendingAndQueues() {
    CliRunner r = CliRunner.run("simulate", "../../examples/gang-all-or-nothing.yaml");

    assertThat(r.exitCode()).isZero();
    assertThat(r.out())
        .contains("Placements")
        .containsPattern("default/filler\\s+run\\s+Running\\s+node-1")
        .containsPattern("default/gang\\s+worker-0\\s+Pending\\s+-")
        .contains("Resources were found for 3 pods while 4 are required for gang scheduling")
        .contains("Queues")
        .containsPattern("team-a\\s+8\\s+8");
  }

  @Test
  void quickstartPlacesEveryJobAndReportsFairShares() {
    CliRunner r = CliRunner.run("simulate", "--output", "json", QUICKSTART.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.out())
        .contains(
            "{\"job\":\"default/llm-pretrain\",\"task\":\"worker-0\",\"status\":\"Binding\",\"node\":\"dgx-1\"")
        .contains("{\"queue\":\"research\",\"fairShare\":{\"gpu\":8.5")
        .contains("{\"node\":\"dgx-0\",\"idleGpus\":1,\"releasingGpus\":0,\"usedGpus\":7");
  }

  @Test
  void sameScenarioTwiceGivesByteIdenticalJson() {
    CliRunner first = CliRunner.run("simulate", "--output", "json", "../../examples");
    CliRunner second = CliRunner.run("simulate", "--output", "json", "../../examples");

    assertThat(first.out()).isNotEmpty().isEqualTo(second.out());
    assertThat(first.out().lines().count()).as("one JSON line per runnable scenario").isEqualTo(48);
  }

  @Test
  void cyclesOptionRunsMoreCyclesAndBoundTasksStartRunning() {
    CliRunner r =
        CliRunner.run("simulate", "--cycles", "2", "--output", "json", QUICKSTART.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.out())
        .contains("\"cycles\":2")
        .contains("\"task\":\"worker-0\",\"status\":\"Running\"");
  }

  @Test
  void checkFailsWithEachMismatchNamed() throws IOException {
    String text =
        Files.readString(QUICKSTART)
            .replace(
                "llm-pretrain: {status: Binding, nodes: [dgx-1]}",
                "llm-pretrain: {status: Running, nodes: [dgx-1]}");
    Path file = dir.resolve("wrong.yaml");
    Files.writeString(file, text);

    CliRunner r = CliRunner.run("simulate", "--check", file.toString());

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("expect.jobs.llm-pretrain.status: want Running, got Binding");
  }

  @Test
  void missingFileExitsTwo() {
    CliRunner r = CliRunner.run("simulate", dir.resolve("nope.yaml").toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo("error: " + dir.resolve("nope.yaml") + ": no such file or directory\n");
  }

  @Test
  void aBadInputDoesNotStopTheOthers() {
    Path missing = dir.resolve("nope.yaml");

    CliRunner r =
        CliRunner.run("simulate", "--output", "json", missing.toString(), QUICKSTART.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("error: " + missing + ": no such file or directory\n");
    assertThat(r.out()).startsWith("{\"scenario\":\"quickstart\"");
  }

  @Test
  void anEmptyDirectoryExitsTwo() {
    CliRunner r = CliRunner.run("simulate", dir.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "error: " + dir + ": no scenario files (*.yaml, *.yml, *.json) in this directory\n");
  }

  @Test
  void aDeviceIsNotAScenarioFile() {
    CliRunner r = CliRunner.run("simulate", "/dev/null");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "error: /dev/null: not a regular file (a scenario is a regular file, or a directory"
                + " of them)\n");
  }

  @Test
  void notUtf8ExitsTwoNamingTheLine() throws IOException {
    Path file = dir.resolve("latin1.yaml");
    Files.write(
        file, (HEAD + "nodes:\n  - {name: caf\u00e9}\n").getBytes(StandardCharsets.ISO_8859_1));

    CliRunner r = CliRunner.run("simulate", file.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("error: " + file + ":5: not valid UTF-8\n");
  }

  @Test
  void checkWithoutAnExpectBlockExitsTwoAndTheOtherFilesStillRun() throws IOException {
    Path file = dir.resolve("no-expect.yaml");
    Files.writeString(file, HEAD + NODES);

    CliRunner r = CliRunner.run("simulate", "--check", file.toString(), QUICKSTART.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("error: --check: " + file + " has no expect: block\n");
    assertThat(r.out())
        .doesNotContain("Scenario bad")
        .contains("Scenario quickstart")
        .contains(QUICKSTART + ": every expectation held");
  }

  @Test
  void maxNodesBoundsTheExpandedNodes() {
    CliRunner r = CliRunner.run("simulate", "--max-nodes", "1", QUICKSTART.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "error: "
                + QUICKSTART
                + ":12: nodes[0].count: the scenario would have 2 nodes, more than the limit of 1"
                + " (raise it with --max-nodes)\n");
    assertThat(CliRunner.run("simulate", "--max-nodes", "2", QUICKSTART.toString()).exitCode())
        .isZero();
  }

  @Test
  void maxPodsBoundsTheExpandedPods() {
    CliRunner r = CliRunner.run("simulate", "--max-pods", "5", QUICKSTART.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "error: "
                + QUICKSTART
                + ":55: jobs[1].tasks[0].replicas: the scenario would have 6 pods, more than the"
                + " limit of 5 (raise it with --max-pods)\n");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"--max-nodes, 0", "--max-pods, -1"})
  void limitsBelowOneAreUsageErrors(String option, String value) {
    CliRunner r = CliRunner.run("simulate", option, value, QUICKSTART.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith(option + " must be at least 1, got " + value + "\n");
  }

  record Invalid(String name, String yaml, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String HEAD =
      "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata: {name: bad}\n";
  private static final String NODES = "nodes:\n  - {name: n, gpus: 8, cpu: \"8\", memory: 64Gi}\n";
  private static final String QUEUE =
      "queues:\n  - name: q\n    resources: {gpu: {quota: 1, overQuotaWeight: 1, limit: -1}}\n";

  static List<Invalid> invalidFiles() {
    return List.of(
        new Invalid(
            "unknown field",
            HEAD + "nodes:\n  - {name: n, gpuz: 8}\n",
            "bad.yaml:5: nodes[0].gpuz: unknown field"),
        new Invalid(
            "wrong type",
            HEAD + NODES + "queues:\n  - name: q\n    priority: high\n",
            "bad.yaml:8: queues[0].priority: expected an integer, got \"high\""),
        new Invalid(
            "unknown parent queue",
            HEAD + NODES + "queues:\n  - {name: q, parent: nope}\n",
            "bad.yaml:7: queues[0].parent: parent queue \"nope\" of queue \"q\" does not exist"),
        new Invalid(
            "queue cycle",
            HEAD + NODES + "queues:\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n",
            "bad.yaml:7: queues[0].parent: queue \"a\" is in a cycle: a -> b -> a"),
        new Invalid(
            "job in a non-leaf queue",
            HEAD
                + NODES
                + "queues:\n  - {name: p}\n  - {name: c, parent: p}\n"
                + "jobs:\n  - {name: j, queue: p, tasks: [{name: t}]}\n",
            "bad.yaml:10: jobs[0].queue: queue \"p\" is not a leaf queue (it is the parent of \"c\")"),
        new Invalid(
            "negative count",
            HEAD
                + NODES
                + QUEUE
                + "jobs:\n  - {name: j, queue: q, count: -1, tasks: [{name: t}]}\n",
            "bad.yaml:10: jobs[0].count: must be >= 0, got -1"),
        new Invalid(
            "negative replicas",
            HEAD
                + NODES
                + QUEUE
                + "jobs:\n  - name: j\n    queue: q\n    tasks:\n      - {name: t, replicas: -2}\n",
            "bad.yaml:13: jobs[0].tasks[0].replicas: must be >= 0, got -2"),
        new Invalid(
            "node count past the limit",
            HEAD + "nodes:\n  - {name: n, count: 2000000000}\n",
            "bad.yaml:5: nodes[0].count: the scenario would have 2000000000 nodes, more than the"
                + " limit of 50000 (raise it with --max-nodes)"),
        new Invalid(
            "replicas past the limit",
            HEAD
                + NODES
                + QUEUE
                + "jobs:\n  - name: j\n    queue: q\n    tasks:\n"
                + "      - {name: t, replicas: 2000000000}\n",
            "bad.yaml:13: jobs[0].tasks[0].replicas: the scenario would have 2000000000 pods,"
                + " more than the limit of 1000000 (raise it with --max-pods)"),
        new Invalid(
            "job without pods",
            HEAD
                + NODES
                + QUEUE
                + "jobs:\n  - {name: j, queue: q, tasks: [{name: t, replicas: 0}]}\n",
            "bad.yaml:10: jobs[0].tasks: a job needs at least one task; every entry here has"
                + " replicas: 0"),
        new Invalid(
            "nesting too deep",
            HEAD + "nodes: " + "[".repeat(2000) + "]".repeat(2000) + "\n",
            "bad.yaml:4: mappings and lists nest more than 100 levels deep here"),
        new Invalid(
            "hostname label with another name",
            HEAD + "nodes:\n  - {name: n, labels: {kubernetes.io/hostname: m}}\n",
            "bad.yaml:5: nodes[0].labels.kubernetes.io/hostname: must be the node's name \"n\","
                + " got \"m\""),
        new Invalid(
            "unknown action",
            HEAD + "config: {actions: [allocate, teleport]}\n" + NODES,
            "bad.yaml:4: config.actions[1]: expected one of allocate, consolidation, reclaim, preempt,"),
        new Invalid(
            "a bad min-runtime argument",
            HEAD
                + "config:\n  plugins:\n    minruntime: {arguments: {defaultReclaimMinRuntime: soon}}\n"
                + NODES,
            "config.plugins.minruntime.arguments.defaultReclaimMinRuntime: expected a duration"),
        new Invalid(
            "plugin not built yet",
            HEAD + "config:\n  plugins:\n    kubeflow: {enabled: true}\n" + NODES,
            "config.plugins.kubeflow: plugin kubeflow is not supported yet"),
        new Invalid(
            "unknown plugin argument",
            HEAD + "config:\n  plugins:\n    proportion: {arguments: {kvalue: 2}}\n" + NODES,
            "config.plugins.proportion.arguments.kvalue: unknown argument of plugin proportion"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidFiles")
  void invalidFileExitsTwoNamingFileLineAndField(Invalid c) throws IOException {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, c.yaml());

    CliRunner r = CliRunner.run("simulate", file.toString());

    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains(c.message()).doesNotContain("Exception").doesNotContain("\tat ");
  }
}
