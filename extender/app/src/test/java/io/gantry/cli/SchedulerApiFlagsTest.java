package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * First contact with {@code gantry scheduler}'s API flags, in a child JVM: a bad value exits 2 with
 * one line naming the flag, before any cluster is looked for.
 */
class SchedulerApiFlagsTest {
  @TempDir Path home;

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "--bind-concurrency, 0, --bind-concurrency must be at least 1",
    "--kube-api-qps, -1, --kube-api-qps must be 0 (no limit) or a positive number",
    "--kube-api-burst, 0, --kube-api-burst must be at least 1"
  })
  void aBadValueExitsTwoInOneLine(String flag, String value, String message)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    args.add("-Duser.home=" + home);
    args.add("-cp");
    args.add(System.getProperty("java.class.path"));
    args.add(GantryCli.class.getName());
    args.addAll(List.of("scheduler", flag, value));
    ProcessBuilder pb = new ProcessBuilder(args);
    pb.environment().remove("KUBECONFIG");
    Path out = home.resolve("stdout");
    Path err = home.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());

    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines).hasSize(1);
    assertThat(errLines.get(0)).contains(message);
    assertThat(Files.readString(out, UTF_8)).isEmpty();
  }
}
