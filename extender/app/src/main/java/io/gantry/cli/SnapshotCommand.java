package io.gantry.cli;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.kaisnapshot.KaiSnapshotReader;
import io.gantry.scheduler.kube.kaisnapshot.KaiSnapshotWriter;
import io.kubernetes.client.openapi.ApiClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gantry snapshot}: KAI snapshots of a live cluster. */
@Command(
    name = "snapshot",
    mixinStandardHelpOptions = true,
    description = "KAI snapshots: the cluster's scheduling objects in the ZIP format of KAI.",
    subcommands = {SnapshotCommand.Export.class})
final class SnapshotCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required (try: gantry snapshot export)");
  }

  /**
   * {@code gantry snapshot export}: the objects a Gantry scheduler schedules by, as KAI's {@code
   * /get-snapshot} writes them, read from the cluster through a kubeconfig (with the scheduler's
   * {@code --config}) or fetched from the scheduler's own {@code /get-snapshot}.
   */
  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Write the cluster as a KAI snapshot (a ZIP holding snapshot.json) that gantry simulate"
              + " and KAI's snapshot tool read.",
      exitCodeListHeading = "%nExit status:%n",
      exitCodeList = {
        "0:written",
        "1:the scheduler or the cluster did not answer in time",
        "2:bad input: no cluster configuration, an invalid --config, a file that cannot be written"
      })
  static final class Export implements Callable<Integer> {
    @Option(
        names = {"-f", "--file"},
        paramLabel = "FILE",
        defaultValue = "snapshot.zip",
        description = "Where to write the snapshot. Default: ${DEFAULT-VALUE}.")
    Path file;

    @Mixin ExplainSource source;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      try {
        byte[] zip = source.scheduler != null ? fetch() : read();
        try (OutputStream out = Files.newOutputStream(file)) {
          out.write(zip);
        } catch (IOException e) {
          throw new ExplainSource.Failure(
              SimulateCommand.INVALID, "cannot write " + file + ": " + e.getMessage());
        }
        spec.commandLine().getOut().println("wrote " + file);
        spec.commandLine().getOut().flush();
        return SimulateCommand.OK;
      } catch (ExplainSource.Failure f) {
        err.println("error: " + f.getMessage());
        err.flush();
        return f.status;
      }
    }

    /** The scheduler's {@code /get-snapshot}, checked to be a snapshot Gantry reads. */
    private byte[] fetch() throws ExplainSource.Failure {
      if (source.kubeconfig != null || source.config != null) {
        throw new ExplainSource.Failure(
            SimulateCommand.INVALID,
            "--scheduler asks the scheduler: leave out --kubeconfig and --config");
      }
      URI uri;
      try {
        uri = URI.create(source.scheduler.replaceAll("/+$", "") + "/get-snapshot");
      } catch (IllegalArgumentException e) {
        throw new ExplainSource.Failure(
            SimulateCommand.INVALID, "--scheduler: not a URL: " + source.scheduler);
      }
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      HttpResponse<byte[]> response;
      try {
        response =
            http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(120)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException | IllegalArgumentException e) {
        throw new ExplainSource.Failure(
            SimulateCommand.EXPECTATION_FAILED, "cannot reach the scheduler at " + uri + ": " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ExplainSource.Failure(SimulateCommand.EXPECTATION_FAILED, "interrupted");
      }
      if (response.statusCode() != 200) {
        throw new ExplainSource.Failure(
            SimulateCommand.EXPECTATION_FAILED, uri + " answered HTTP " + response.statusCode());
      }
      try {
        KaiSnapshotReader.read(uri.toString(), new ByteArrayInputStream(response.body()));
      } catch (ScenarioException | IOException e) {
        throw new ExplainSource.Failure(
            SimulateCommand.EXPECTATION_FAILED, "not a KAI snapshot: " + e.getMessage());
      }
      return response.body();
    }

    /** The cluster listed once through the scheduler's own caches, written as a snapshot. */
    private byte[] read() throws ExplainSource.Failure {
      SchedulerSettings settings = source.settings();
      ApiClient client;
      try {
        client = KubeClients.connect(settings.cluster(), settings.startupTimeout());
      } catch (IOException e) {
        throw new ExplainSource.Failure(
            SimulateCommand.INVALID, "cannot read the cluster configuration: " + e.getMessage());
      }
      try (ClusterInformers informers = new ClusterInformers(client)) {
        informers.start();
        long deadline = System.nanoTime() + ExplainSource.SYNC_TIMEOUT.toNanos();
        while (!informers.hasSynced()
            || (informers.served().dra() && !informers.dra().hasSynced())) {
          if (System.nanoTime() > deadline) {
            throw new ExplainSource.Failure(
                SimulateCommand.EXPECTATION_FAILED,
                "the cluster's objects were not all listed within "
                    + ExplainSource.SYNC_TIMEOUT.toSeconds()
                    + " s");
          }
          Thread.sleep(50);
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        KaiSnapshotWriter.write(informers, settings, out);
        return out.toByteArray();
      } catch (IOException e) {
        throw new ExplainSource.Failure(SimulateCommand.EXPECTATION_FAILED, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ExplainSource.Failure(SimulateCommand.EXPECTATION_FAILED, "interrupted");
      }
    }
  }
}
