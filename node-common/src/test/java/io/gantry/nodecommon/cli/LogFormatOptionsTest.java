package io.gantry.nodecommon.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class LogFormatOptionsTest {
  @Command(name = "serve")
  static final class Serve implements Runnable {
    @CommandLine.Mixin LogFormatOptions logFormat;

    @Override
    public void run() {
      LoggerFactory.getLogger("io.gantry.test").warn("GPU {} is gone", "GPU-1");
    }
  }

  private final PrintStream err = System.err;

  @AfterEach
  void backToText() {
    System.setErr(err);
    new CommandLine(new Serve()).parseArgs("--log-format", "text");
    System.clearProperty(LogFormatOptions.PROPERTY);
  }

  private String run(String... args) {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, UTF_8));
    int code = new CommandLine(new Serve()).execute(args);
    System.setErr(err);
    assertThat(code).isZero();
    return captured.toString(UTF_8);
  }

  @Test
  void jsonWritesOneJsonObjectPerEvent() {
    List<String> lines = run("--log-format", "json").lines().toList();

    assertThat(lines)
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .startsWith("{")
                    .endsWith("}")
                    .contains("\"level\":\"WARN\"")
                    .contains("\"loggerName\":\"io.gantry.test\"")
                    .contains("\"formattedMessage\":\"GPU GPU-1 is gone\""));
  }

  @Test
  void textIsOneLinePerEvent() {
    assertThat(run("--log-format", "text")).isEqualTo("WARN test - GPU GPU-1 is gone\n");
  }

  @Test
  void anotherFormatIsRefusedNamingTheOption() {
    CommandLine cli = new CommandLine(new Serve());
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    cli.setErr(new java.io.PrintWriter(captured, true, UTF_8));

    assertThat(cli.execute("--log-format", "xml")).isEqualTo(2);
    assertThat(captured.toString(UTF_8))
        .startsWith(
            "Invalid value for option '--log-format': expected one of [text, json]"
                + " (case-sensitive) but was 'xml'");
  }
}
