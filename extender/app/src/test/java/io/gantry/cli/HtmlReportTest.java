package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.sim.ScenarioRun;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.JobResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import io.gantry.scheduler.sim.report.CycleHistory;
import io.gantry.scheduler.sim.report.HtmlReport;
import io.gantry.scheduler.sim.report.RunSummary;
import io.gantry.scheduler.sim.spec.ScenarioDirectory;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code gantry simulate --report}: for every example, the page parses (jsoup), fetches nothing,
 * and the numbers its SVG carries are the simulation's.
 */
class HtmlReportTest {
  private static final Path EXAMPLES = Path.of("..", "..", "examples");

  @TempDir Path dir;

  static Stream<Path> examples() throws Exception {
    return Stream.concat(
            ScenarioDirectory.scenarioFiles(EXAMPLES).stream(),
            // a multi-cycle run, so the timeline is drawn
            Stream.of(EXAMPLES.resolve("kai").resolve("consolidate-then-reclaim-cycles.yaml")))
        .filter(Files::exists);
  }

  @ParameterizedTest
  @MethodSource("examples")
  void theReportOfEveryExampleParsesAndDrawsTheSimulationsNumbers(Path file) throws Exception {
    CycleHistory history = new CycleHistory();
    SimulationResult r =
        ScenarioRun.of(file, ScenarioLoader.load(file), OptionalInt.empty(), history).result();
    Document page = Jsoup.parse(HtmlReport.render(r, history));

    assertThat(page.title()).isEqualTo("Gantry simulation: " + r.scenario());
    assertThat(page.select("script, link, img, iframe, object")).as("nothing external").isEmpty();
    assertThat(page.select("[src], [href]")).isEmpty();
    assertThat(page.getElementById("summary").text()).startsWith(RunSummary.of(r).line());

    int last = r.cycles();
    for (QueueResult q : r.queues()) {
      assertThat(point(page, q.queue(), "allocated", last)).isEqualTo(q.allocated().gpu());
      assertThat(point(page, q.queue(), "fair-share", last)).isEqualTo(q.fairShare().gpu());
    }
    assertThat(page.select("circle.used").size()).isEqualTo(history.cycles().size());
    Element cluster = page.select("circle.used[data-cycle=" + last + "]").first();
    assertThat(Long.parseLong(cluster.attr("data-used"))).isEqualTo(RunSummary.of(r).usedGpus());
    assertThat(Long.parseLong(cluster.attr("data-total"))).isEqualTo(RunSummary.of(r).totalGpus());

    Elements nodes = page.select("rect.node");
    assertThat(nodes).hasSize(r.nodes().size());
    for (int i = 0; i < r.nodes().size(); i++) {
      NodeResult n = r.nodes().get(i);
      Element rect = nodes.get(i);
      assertThat(rect.attr("data-node")).isEqualTo(n.node());
      assertThat(Integer.parseInt(rect.attr("data-used"))).isEqualTo(n.usedGpus());
      assertThat(Integer.parseInt(rect.attr("data-shared-groups")))
          .isEqualTo(n.sharedGpuGroups().size());
      assertThat(rect.hasClass("shared")).isEqualTo(!n.sharedGpuGroups().isEmpty());
    }

    long waiting =
        r.tasks().stream()
            .filter(t -> t.status().equals("Pending") || t.status().equals("Gated"))
            .count();
    int drawn =
        page.select("rect.bar").stream()
            .mapToInt(b -> Integer.parseInt(b.attr("data-count")))
            .sum();
    assertThat(drawn).isEqualTo(waiting);

    if (history.cycles().size() > 1) {
      for (JobResult j : r.jobs()) {
        Elements cells = page.select("rect[data-job=" + j.job() + "][data-cycle=" + last + "]");
        assertThat(cells).hasSize(1);
        String state = cells.first().attr("data-state");
        switch (j.status()) {
          case "Pending" -> assertThat(state).isIn("pending", "evicted");
          case "Running", "Binding" -> assertThat(state).isEqualTo("running");
          case "Pipelined" -> assertThat(state).isEqualTo("pipelined");
          default -> assertThat(state).isNotEmpty();
        }
      }
    } else {
      assertThat(page.getElementById("timeline")).isNull();
    }
  }

  private static double point(Document page, String queue, String series, int cycle) {
    Elements p =
        page.select(
            "circle[data-queue="
                + queue
                + "][data-series="
                + series
                + "][data-cycle="
                + cycle
                + "]");
    assertThat(p).as("%s %s at cycle %d", queue, series, cycle).hasSize(1);
    return Double.parseDouble(p.first().attr("data-value"));
  }

  @Test
  void theCommandWritesTheReportAndKeepsStdoutTheTextReport() throws Exception {
    Path out = dir.resolve("out.html");
    CliRunner r =
        CliRunner.run(
            "simulate", "--report", out.toString(), EXAMPLES.resolve("reclaim.yaml").toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).startsWith("Scenario ").contains("Summary: ");
    Document page = Jsoup.parse(Files.readString(out, StandardCharsets.UTF_8));
    assertThat(page.select("section"))
        .extracting(Element::id)
        .containsSubsequence("queues", "cluster", "nodes", "pending");
  }

  @Test
  void aReportOfSeveralFilesIsRefusedInOneLine() {
    CliRunner r =
        CliRunner.run(
            "simulate",
            "--report",
            dir.resolve("out.html").toString(),
            EXAMPLES.resolve("reclaim.yaml").toString(),
            EXAMPLES.resolve("preempt.yaml").toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("error: --report takes one scenario file, got 2 inputs\n");
    assertThat(Files.exists(dir.resolve("out.html"))).isFalse();
  }

  @Test
  void jobAndQueueFiltersNarrowTheTextOutput() {
    CliRunner all = CliRunner.run("simulate", EXAMPLES.resolve("queue-hierarchy.yaml").toString());
    List<String> queues = all.out().lines().filter(l -> l.contains("─ ")).toList();
    assertThat(queues).as("the queue tree is drawn").isNotEmpty();

    CliRunner job =
        CliRunner.run(
            "simulate", "--job", "gang", EXAMPLES.resolve("gang-all-or-nothing.yaml").toString());
    assertThat(job.out()).contains("default/gang").doesNotContain("default/filler");
  }
}
