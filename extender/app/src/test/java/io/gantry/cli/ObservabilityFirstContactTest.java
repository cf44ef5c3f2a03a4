package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The options of issue 27 refuse bad input in one line and exit 2, run as a user runs them. */
class ObservabilityFirstContactTest {
  private static final String RECLAIM = Path.of("..", "..", "examples", "reclaim.yaml").toString();

  @TempDir Path dir;

  private List<String> run(int exit, String... command) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    args.add("-cp");
    args.add(System.getProperty("java.class.path"));
    args.add(GantryCli.class.getName());
    args.addAll(List.of(command));
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    Process p =
        new ProcessBuilder(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();
    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(exit);
    return errLines;
  }

  @Test
  void aReportOfTwoFilesIsRefused() throws Exception {
    Path report = dir.resolve("r.html");
    assertThat(run(2, "simulate", "--report", report.toString(), RECLAIM, RECLAIM))
        .containsExactly("error: --report takes one scenario file, got 2 inputs");
    assertThat(report).doesNotExist();
  }

  @Test
  void aMetricsNamespaceThatIsNoPrometheusNameIsRefused() throws Exception {
    assertThat(run(2, "scheduler", "--metrics-namespace", "9lives"))
        .containsExactly(
            "error: --metrics-namespace: \"9lives\" is not a Prometheus name (letters, digits and"
                + " _, not starting with a digit)");
  }

  @Test
  void aReportIsWrittenAndStdoutKeepsTheTextReport() throws Exception {
    Path report = dir.resolve("r.html");
    assertThat(run(0, "simulate", "--report", report.toString(), RECLAIM)).isEmpty();
    assertThat(Files.readString(report, UTF_8)).startsWith("<!DOCTYPE html>");
    assertThat(Files.readString(dir.resolve("stdout"), UTF_8)).contains("Summary: ");
  }
}
