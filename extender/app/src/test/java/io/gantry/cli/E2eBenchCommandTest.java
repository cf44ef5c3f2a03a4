package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry bench --preset e2e-1k} shrunk to four nodes and twenty pods with {@code --nodes}:
 * the live scheduler binds every pod through the fake API server, and the counts agree with each
 * other. Figures are printed, never asserted.
 */
class E2eBenchCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aTinyEndToEndRunBindsEveryPodAndCountsOneBindingEach() throws Exception {
    CliRunner r = CliRunner.run("bench", "--preset", "e2e-1k", "--nodes", "4", "--output", "json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().lines()).hasSize(1);
    JsonNode o = JSON.readTree(r.out());
    assertThat(o.get("preset").asText()).isEqualTo("e2e-1k");
    assertThat(o.get("nodes").asInt()).isEqualTo(4);
    assertThat(o.get("pods").asInt()).isEqualTo(40);
    assertThat(o.get("allBound").asBoolean()).isTrue();
    assertThat(o.get("boundPods").asInt()).isEqualTo(40);
    assertThat(o.get("ceilingAllBound").asBoolean()).isTrue();
    assertThat(o.get("requests").get("create pods/binding").asInt()).isEqualTo(40);
    assertThat(o.get("requestsPerPod").get("create pods/binding").asDouble()).isEqualTo(1.0);
    assertThat(o.get("writesPerPod").asDouble()).isGreaterThanOrEqualTo(1.0);
    assertThat(o.get("podsPerSecond").asDouble()).isPositive();
    assertThat(o.get("ceilingPodsPerSecond").asDouble()).isPositive();
    assertThat(o.get("ratio").asDouble())
        .isCloseTo(
            o.get("podsPerSecond").asDouble() / o.get("ceilingPodsPerSecond").asDouble(),
            org.assertj.core.data.Offset.offset(0.01));
    assertThat(o.get("createdToBoundP99Millis").asDouble())
        .isGreaterThanOrEqualTo(o.get("createdToBoundP50Millis").asDouble());
    assertThat(o.get("cycles").asLong()).isPositive();
    assertThat(r.err())
        .contains(
            "e2e-1k: warming up: 40 bindings",
            "e2e-1k: starting the scheduler",
            "e2e-1k: ceiling: posting 40");
  }

  @Test
  void textNamesTheRatioAndTheRequests() {
    CliRunner r = CliRunner.run("bench", "--preset", "e2e-1k", "--nodes", "2");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .startsWith("e2e-1k: 2 nodes, 20 pods, 20 bound\n")
        .contains("pods/s end to end; ceiling", "create pods/binding");
  }

  @Test
  void theMemoryPresetMeasuresTheSchedulersHeapOverRunningPods() throws Exception {
    CliRunner r =
        CliRunner.run("bench", "--preset", "e2e-memory-150k", "--nodes", "3", "--output", "json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode o = JSON.readTree(r.out());
    assertThat(o.get("preset").asText()).isEqualTo("e2e-memory-150k");
    assertThat(o.get("nodes").asInt()).isEqualTo(3);
    assertThat(o.get("runningPods").asInt()).isEqualTo(90);
    assertThat(o.get("cycles").asLong()).isGreaterThanOrEqualTo(2);
    assertThat(o.get("schedulerHeapAfterGcBytes").asLong())
        .isEqualTo(
            o.get("totalHeapAfterGcBytes").asLong() - o.get("serverHeapAfterGcBytes").asLong());
    assertThat(r.err()).contains("e2e-memory-150k: creating 3 nodes and 90 running pods");
  }

  /** First contact, in a child JVM: a size no preset can take fails in one line with exit 2. */
  @Test
  void tooFewNodesExitTwoInOneLine() throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            GantryCli.class.getName(),
            "bench",
            "--preset",
            "e2e-5k",
            "--nodes",
            "1");
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());

    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines).hasSize(1);
    assertThat(errLines.get(0)).contains("--nodes must be at least 2 for an end-to-end preset");
    assertThat(Files.readString(out, UTF_8)).isEmpty();
  }
}
