package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code gantry ARGS} in a child JVM, as a user's shell would: the exit status and the lines
 * of stdout and stderr, so that a test sees what the process prints, stack traces included.
 */
record ChildJvm(int exitCode, List<String> out, List<String> err) {
  /** Runs the command in {@code dir} (which keeps its output files), waiting at most a minute. */
  static ChildJvm run(Path dir, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(GantryCli.class.getName());
    command.addAll(List.of(args));
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    try {
      Process p = pb.start();
      boolean exited = p.waitFor(60, TimeUnit.SECONDS);
      if (!exited) {
        p.destroyForcibly().waitFor();
      }
      assertThat(exited).as("gantry %s exits within a minute", String.join(" ", args)).isTrue();
      return new ChildJvm(
          p.exitValue(), Files.readAllLines(out, UTF_8), Files.readAllLines(err, UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
