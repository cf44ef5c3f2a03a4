package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.kubemodel.config.SchedulerFileLoader;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.explain.ExplainService;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.LiveCluster;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.sim.ScenarioStart;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Where {@code gantry explain} and {@code gantry queues} get their answers: a scenario file (the
 * cluster as the file starts it), the running scheduler's debug endpoints ({@code --scheduler
 * URL}), or the cluster itself, read through a kubeconfig as kubectl finds one and explained here
 * with the scheduler's configuration ({@code --config}).
 */
final class ExplainSource {
  /** How long a cluster read through a kubeconfig may take to list everything. */
  static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);

  /** How long to wait for the API server to answer at all. */
  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Read the cluster through this kubeconfig and explain here; default: the first existing"
              + " file in $KUBECONFIG, else ~/.kube/config, else the pod's service account.")
  Path kubeconfig;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "With a cluster: the scheduler configuration (YAML) the scheduler runs with; default:"
              + " every default.")
  Path config;

  @Option(
      names = "--scheduler",
      paramLabel = "URL",
      description =
          "Ask the running scheduler's debug endpoints instead, e.g. http://127.0.0.1:8081 through"
              + " kubectl port-forward.")
  String scheduler;

  /** A failure to report in one line with an exit status. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    Failure(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  /** The answer {@code ask} gives on the scenario's cluster as it starts. */
  static ExplainService.Answer fromScenario(
      Path file, Function<ExplainService, ExplainService.Answer> ask) throws Failure {
    try {
      ScenarioSpec spec = ScenarioLoader.load(file);
      ScenarioStart start = ScenarioStart.of(spec);
      ExplainService service =
          new ExplainService(
              new SchedulerWiring(new CelDeviceSelectors()).explainer(start.config()),
              start::snapshot);
      return ask.apply(service);
    } catch (ScenarioException e) {
      throw new Failure(SimulateCommand.INVALID, e.getMessage());
    } catch (ConfigException e) {
      throw new Failure(SimulateCommand.INVALID, file + ": config." + e.key() + ": " + e.problem());
    }
  }

  /**
   * The answer of the scheduler's {@code path} with {@code query}, or of {@code ask} on the cluster
   * read now.
   */
  ExplainService.Answer live(
      String path, Map<String, String> query, Function<ExplainService, ExplainService.Answer> ask)
      throws Failure {
    if (scheduler != null) {
      if (kubeconfig != null || config != null) {
        throw new Failure(
            SimulateCommand.INVALID,
            "--scheduler asks the scheduler: leave out --kubeconfig and --config");
      }
      return ask(path, query);
    }
    SchedulerSettings settings = settings();
    LiveCluster cluster;
    try {
      cluster =
          LiveCluster.start(
              KubeClients.connect(settings.cluster(), settings.startupTimeout()),
              settings,
              Clock.systemUTC());
    } catch (IOException e) {
      throw new Failure(
          SimulateCommand.INVALID, "cannot read the cluster configuration: " + e.getMessage());
    }
    try {
      long deadline = System.nanoTime() + SYNC_TIMEOUT.toNanos();
      while (!cluster.ready()) {
        if (System.nanoTime() > deadline) {
          throw new Failure(
              SimulateCommand.EXPECTATION_FAILED,
              "the cluster's objects were not all listed within "
                  + SYNC_TIMEOUT.toSeconds()
                  + " s");
        }
        Thread.sleep(50);
      }
      ExplainService service =
          ExplainService.live(
              new SchedulerWiring(new CelDeviceSelectors()).explainer(settings.engine()),
              cluster::reading);
      return ask.apply(service);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(SimulateCommand.EXPECTATION_FAILED, "interrupted");
    } finally {
      cluster.close();
    }
  }

  /**
   * The scheduler's settings of {@code --config} (every default without it), connecting through
   * {@code --kubeconfig} as kubectl would.
   */
  SchedulerSettings settings() throws Failure {
    try {
      SchedulerFileSpec file =
          config == null ? SchedulerFileSpec.defaults() : SchedulerFileLoader.load(config);
      return SchedulerConfigFile.settings(file, "gantry-explain", "default")
          .withConnection(
              new ClusterAccess(Optional.ofNullable(kubeconfig), Optional.empty()),
              STARTUP_TIMEOUT,
              0);
    } catch (ScenarioException e) {
      throw new Failure(SimulateCommand.INVALID, e.getMessage());
    }
  }

  private ExplainService.Answer ask(String path, Map<String, String> query) throws Failure {
    StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach((k, v) -> q.add(k + "=" + URLEncoder.encode(v, UTF_8)));
    URI uri;
    try {
      uri = URI.create(scheduler.replaceAll("/+$", "") + path + q);
    } catch (IllegalArgumentException e) {
      throw new Failure(SimulateCommand.INVALID, "--scheduler: not a URL: " + scheduler);
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      return new ExplainService.Answer(response.statusCode(), response.body());
    } catch (IOException | IllegalArgumentException e) {
      throw new Failure(
          SimulateCommand.EXPECTATION_FAILED, "cannot reach the scheduler at " + uri + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(SimulateCommand.EXPECTATION_FAILED, "interrupted");
    }
  }

  /** How a command's {@code --output} asks for the answer. */
  static ExplainService.Format format(SimulateCommand.Output output) {
    return output == SimulateCommand.Output.json
        ? ExplainService.Format.JSON
        : ExplainService.Format.TEXT;
  }

  /** {@code format} as the scheduler's endpoints take it ({@code output=}). */
  static String outputParameter(ExplainService.Format format) {
    return format == ExplainService.Format.JSON ? "json" : "text";
  }

  /**
   * Refuses the live options next to a scenario, which is read as it is ({@code what}: "explained",
   * "shown").
   */
  void requireScenarioOnly(CommandLine commandLine, String what) {
    if (kubeconfig != null || scheduler != null || config != null) {
      throw new CommandLine.ParameterException(
          commandLine,
          "a scenario is " + what + " as it is: leave out --kubeconfig, --config and --scheduler");
    }
  }

  /** Where an answer comes from: a scenario, the scheduler or the cluster. */
  @FunctionalInterface
  interface Asking {
    ExplainService.Answer ask() throws Failure;
  }

  /** Asks and prints the answer ({@link #print}), or the failure in one line with its status. */
  static int answer(CommandLine commandLine, Asking asking) {
    PrintWriter err = commandLine.getErr();
    try {
      return print(asking.ask(), commandLine.getOut(), err);
    } catch (Failure f) {
      err.println("error: " + f.getMessage());
      err.flush();
      return f.status;
    }
  }

  /**
   * Prints an answer: the report on stdout (0), or its first line as an error (2 when the request
   * named no job or several, 1 otherwise).
   */
  private static int print(ExplainService.Answer answer, PrintWriter out, PrintWriter err) {
    if (answer.ok()) {
      out.print(answer.body());
      out.flush();
      return SimulateCommand.OK;
    }
    String line = answer.body().lines().findFirst().orElse("HTTP " + answer.status());
    err.println("error: " + line);
    err.flush();
    return answer.status() == 400 || answer.status() == 404
        ? SimulateCommand.INVALID
        : SimulateCommand.EXPECTATION_FAILED;
  }
}
