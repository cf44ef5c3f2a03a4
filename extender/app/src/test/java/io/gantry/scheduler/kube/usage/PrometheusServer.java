package io.gantry.scheduler.kube.usage;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus (the Debian package {@code prometheus}; {@code .ci/run} installs it) for tests:
 * the given OpenMetrics samples are backfilled with {@code promtool tsdb create-blocks-from
 * openmetrics}, then {@code prometheus} serves them on a free local port. Tests that need it fail —
 * never skip — when it is missing or does not start, saying why.
 */
public final class PrometheusServer implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final URI url;

  private PrometheusServer(Process process, URI url) {
    this.process = process;
    this.url = url;
  }

  /** The base URL, {@code http://127.0.0.1:PORT}. */
  public URI url() {
    return url;
  }

  /**
   * Backfills {@code openMetrics} (ending with {@code # EOF}) into a fresh store under {@code dir}
   * and starts Prometheus on it.
   */
  public static PrometheusServer start(Path dir, String openMetrics) {
    Path prometheus = binary("prometheus");
    Path promtool = binary("promtool");
    try {
      Path samples = dir.resolve("samples.om");
      Path data = dir.resolve("data");
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(samples, openMetrics, StandardCharsets.UTF_8);
      Files.writeString(config, "global: {}\n", StandardCharsets.UTF_8);
      Path backfillLog = dir.resolve("promtool.log");
      Process backfill =
          new ProcessBuilder(
                  promtool.toString(),
                  "tsdb",
                  "create-blocks-from",
                  "openmetrics",
                  samples.toString(),
                  data.toString())
              .redirectErrorStream(true)
              .redirectOutput(backfillLog.toFile())
              .start();
      if (!backfill.waitFor(60, TimeUnit.SECONDS) || backfill.exitValue() != 0) {
        backfill.destroyForcibly();
        throw new AssertionError(
            "promtool could not backfill the test samples:\n" + Files.readString(backfillLog));
      }
      int port = freePort();
      Path log = dir.resolve("prometheus.log");
      Process server =
          new ProcessBuilder(
                  prometheus.toString(),
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + data,
                  "--storage.tsdb.retention.time=30d",
                  "--web.listen-address=127.0.0.1:" + port)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      URI url = URI.create("http://127.0.0.1:" + port);
      PrometheusServer started = new PrometheusServer(server, url);
      started.awaitReady(log);
      return started;
    } catch (IOException e) {
      throw new AssertionError("could not start Prometheus for the test: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while starting Prometheus", e);
    }
  }

  private void awaitReady(Path log) throws InterruptedException, IOException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new AssertionError(
            "prometheus exited with " + process.exitValue() + ":\n" + Files.readString(log));
      }
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(url.resolve("/-/ready")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      }
      Thread.sleep(100);
    }
    close();
    throw new AssertionError(
        "prometheus was not ready within " + START_TIMEOUT + ":\n" + Files.readString(log));
  }

  private static Path binary(String name) {
    Optional<Path> found = onPath(name);
    if (found.isEmpty()) {
      throw new AssertionError(
          name
              + " is required by this test and is not on PATH: install the Debian package"
              + " prometheus (apt-get install prometheus; .ci/run installs it when missing)");
    }
    return found.get();
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    List<String> dirs =
        new ArrayList<>(List.of(path == null ? new String[0] : path.split(File.pathSeparator)));
    dirs.add("/usr/bin");
    for (String d : dirs) {
      Path candidate = Path.of(d, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
