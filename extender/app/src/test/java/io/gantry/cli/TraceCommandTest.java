package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gantry trace} on a small generated trace, and its first contact with bad input. */
class TraceCommandTest {
  @TempDir Path dir;

  private void writeTrace() throws IOException {
    List<String> nodes = new ArrayList<>(List.of("sn,cpu_milli,memory_mib,gpu,model"));
    for (int i = 0; i < 6; i++) {
      nodes.add(
          String.format(
              "node-%d,32000,131072,%d,%s", i, i % 2 == 0 ? 2 : 4, i < 3 ? "T4" : "V100"));
    }
    List<String> tasks =
        new ArrayList<>(
            List.of(
                "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                    + "deletion_time,scheduled_time"));
    int[] shares = {1000, 500, 250, 750};
    for (int i = 0; i < 20; i++) {
      tasks.add(
          String.format(
              "task-%d,2000,4096,%d,%d,%s,LS,Running,%d,%d,%d",
              i,
              i % 7 == 0 ? 2 : 1,
              i % 7 == 0 ? 1000 : shares[i % 4],
              i % 5 == 0 ? "V100" : "",
              i * 10,
              i * 10 + 300,
              i * 10));
    }
    Files.write(dir.resolve(TraceCommand.DEFAULT_NODES), nodes, UTF_8);
    Files.write(dir.resolve(TraceCommand.DEFAULT_TASKS), tasks, UTF_8);
  }

  @Test
  void inflateReportsEveryPolicyOnTheSameArrivals() throws IOException {
    writeTrace();
    Path html = dir.resolve("chart.html");
    Path svg = dir.resolve("chart.svg");

    CliRunner r =
        CliRunner.run(
            "trace",
            dir.toString(),
            "--seeds",
            "1..2",
            "--policy",
            "binpack,fragmentation-aware",
            "--output",
            "json",
            "--html",
            html.toString(),
            "--svg",
            svg.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(json.get("mode").asText()).isEqualTo("inflate");
    assertThat(json.get("policies")).hasSize(2);
    assertThat(json.get("policies").get(1).get("policy").asText()).isEqualTo("fragmentation-aware");
    assertThat(json.get("policies").get(0).get("runs")).hasSize(2);
    assertThat(json.get("policies").get(0).get("meanUnallocatedPercent")).hasSize(131);
    assertThat(r.err()).contains("seed 2, fragmentation-aware:");
    assertThat(Files.readString(html, UTF_8)).contains("<svg").contains("binpack (KAI default)");
    assertThat(Files.readString(svg, UTF_8)).startsWith("<svg").contains("fragmentation-aware");
  }

  @Test
  void timelineReportsDelaysAndTasksNeverPlaced() throws IOException {
    writeTrace();

    CliRunner r = CliRunner.run("trace", dir.toString(), "--mode", "timeline", "--period", "30s");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("timeline: a cycle every 30s").contains("binpack (KAI default)");
    assertThat(r.out()).contains("fragmentation-aware");
  }

  @Test
  void aBadPolicyIsOneLineAndExitTwo() throws IOException {
    writeTrace();

    CliRunner r = CliRunner.run("trace", dir.toString(), "--policy", "binpack,tetris");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(
            "error: --policy: expected one of binpack, spread, fragmentation-aware, random,"
                + " best-fit, dot-product, gpu-packing, got \"tetris\"");
  }

  /** First contact, in a child JVM: a folder without the trace exits 2 with one line. */
  @Test
  void aMissingTraceIsOneLineAndExitTwoInAChildJvm() throws IOException, InterruptedException {
    Path missing = dir.resolve("no-such-trace");
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    args.add("-cp");
    args.add(System.getProperty("java.class.path"));
    args.add(GantryCli.class.getName());
    args.add("trace");
    args.add(missing.toString());
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    Process p =
        new ProcessBuilder(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines).hasSize(1);
    assertThat(errLines.get(0))
        .startsWith("error: " + missing.resolve(TraceCommand.DEFAULT_NODES) + ": cannot read: ");
    assertThat(Files.readString(out, UTF_8)).isEmpty();
  }
}
