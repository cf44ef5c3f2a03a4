package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * First contact with {@code --log-format}, in a child JVM: json makes every line on standard error
 * a JSON object (logback's JsonEncoder, exceptions included), and a format that is neither text nor
 * json exits 2 naming the option.
 */
class LogFormatFirstContactTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private Process start(String... command) throws IOException {
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    args.add("-Duser.home=" + dir);
    args.add("-cp");
    args.add(System.getProperty("java.class.path"));
    args.add(GantryCli.class.getName());
    args.addAll(List.of(command));
    return new ProcessBuilder(args)
        .redirectOutput(dir.resolve("stdout").toFile())
        .redirectError(dir.resolve("stderr").toFile())
        .start();
  }

  @Test
  void withJsonEveryLogLineIsAJsonObject() throws Exception {
    // nothing listens on port 1: the informers log their failures while the scheduler runs
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        current-context: x
        clusters: [{name: c, cluster: {server: 'http://127.0.0.1:1'}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        """,
        UTF_8);
    Process p =
        start(
            "scheduler",
            "--log-format",
            "json",
            "--kubeconfig",
            kubeconfig.toString(),
            "--http-port",
            "0",
            "--debug-address",
            "127.0.0.1:0");
    Path err = dir.resolve("stderr");
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    try {
      while (Files.size(err) == 0 && p.isAlive() && Instant.now().isBefore(deadline)) {
        Thread.sleep(200);
      }
      Thread.sleep(500);
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }

    List<String> lines = Files.readAllLines(err, UTF_8);
    assertThat(lines).as("the scheduler logged").isNotEmpty();
    // the last line may have been cut by the kill
    for (String line : lines.subList(0, lines.size() - 1)) {
      JsonNode event = JSON.readTree(line);
      assertThat(event.isObject()).as(line).isTrue();
      assertThat(event.path("level").asText()).as(line).isIn("ERROR", "WARN", "INFO");
      assertThat(event.has("loggerName")).as(line).isTrue();
      assertThat(event.has("formattedMessage")).as(line).isTrue();
    }
  }

  @Test
  void anUnknownFormatExitsTwoNamingTheOption() throws Exception {
    Process p = start("crds", "apply", "--log-format", "xml");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(dir.resolve("stderr"), UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines)
        .first()
        .isEqualTo(
            "Invalid value for option '--log-format': expected one of [text, json]"
                + " (case-sensitive) but was 'xml'");
  }
}
