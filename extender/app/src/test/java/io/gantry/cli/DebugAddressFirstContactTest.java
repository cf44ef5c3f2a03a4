package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * First contact: {@code gantry scheduler --debug-address} that is not HOST:PORT exits 2 naming the
 * option, in a child JVM, before it connects to any cluster.
 */
class DebugAddressFirstContactTest {
  @TempDir Path home;

  @Test
  void aMalformedDebugAddressExitsTwoNamingTheOption() throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Duser.home=" + home,
            "-cp",
            System.getProperty("java.class.path"),
            GantryCli.class.getName(),
            "scheduler",
            "--debug-address",
            "8081");
    Path out = home.resolve("stdout");
    Path err = home.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());

    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines).first().isEqualTo("--debug-address: expected HOST:PORT, got '8081'");
    assertThat(String.join("\n", errLines)).doesNotContain("Exception");
  }
}
