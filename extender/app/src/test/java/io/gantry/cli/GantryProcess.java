package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.gantry.nodecommon.testing.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code gantry} run as a user runs it: in a child JVM on the main classes only (no test classes,
 * so gantry.jar's own logging configuration applies), with no {@code $KUBECONFIG}, outside a pod,
 * its home in {@code dir}, and stdout and stderr in files there.
 */
final class GantryProcess implements AutoCloseable {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Process process;
  private final Path out;
  private final Path err;

  private GantryProcess(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  static GantryProcess start(Path dir, String... args) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(
            ChildJvm.command(List.of("-Duser.home=" + dir), GantryCli.class, List.of(args)));
    pb.environment().remove("KUBECONFIG");
    pb.environment().remove("KUBERNETES_SERVICE_HOST");
    pb.environment().remove("KUBERNETES_SERVICE_PORT");
    Path out = Files.createTempFile(dir, "stdout", ".txt");
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    return new GantryProcess(pb.start(), out, err);
  }

  /** Waits for the process to end by itself; its exit status. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("still running after " + timeout + "; stderr:\n" + stderr());
    }
    return process.exitValue();
  }

  /** Sends SIGTERM (what {@link Process#destroy()} does on Linux); the exit status. */
  int terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    return awaitExit(timeout);
  }

  /** The first group of {@code pattern} in stdout, once a line matches it. */
  String awaitStdout(Pattern pattern, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = pattern.matcher(read(out));
      if (m.find()) {
        return m.group(1);
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            "exited " + process.exitValue() + " before printing " + pattern + ":\n" + stderr());
      }
      Thread.sleep(100);
    }
    throw new AssertionError("printed no " + pattern + " in " + timeout + "; stderr:\n" + stderr());
  }

  /** The status code of {@code GET url}, or 0 when nothing answers. */
  static int get(String url) throws InterruptedException {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return 0;
    }
  }

  String stdout() {
    return read(out);
  }

  String stderr() {
    return read(err);
  }

  List<String> stderrLines() {
    return stderr().lines().toList();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
