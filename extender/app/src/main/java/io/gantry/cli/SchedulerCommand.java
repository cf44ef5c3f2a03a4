package io.gantry.cli;

import io.gantry.kubemodel.config.SchedulerFileLoader;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.nodecommon.cli.LogFormatOptions;
import io.gantry.nodecommon.cli.StopSignal;
import io.gantry.scheduler.kube.ApiRateLimit;
import io.gantry.scheduler.kube.LiveSchedulerWiring;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.ops.DebugServer;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry scheduler}: runs Gantry as a secondary scheduler for the pods whose {@code
 * schedulerName} is its own, until it is stopped (SIGTERM or SIGINT: a graceful stop, exit status
 * 0). Exit status 2 when the configuration is invalid (the message names the file, line and key) or
 * the cluster cannot be reached at start.
 */
@Command(
    name = "scheduler",
    mixinStandardHelpOptions = true,
    description =
        "Run Gantry as a secondary Kubernetes scheduler next to kube-scheduler: it schedules the"
            + " pods whose spec.schedulerName is its schedulerName (default gantry-scheduler).",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:stopped by a signal",
      "2:the configuration is invalid, the cluster's configuration cannot be read, or its API"
          + " server does not answer within --startup-timeout"
    })
final class SchedulerCommand implements Callable<Integer> {
  static final String SERVICE_ACCOUNT_NAMESPACE =
      "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

  @CommandLine.Mixin ConnectionOptions connection = new ConnectionOptions();

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The scheduler configuration (YAML): the keys of a scenario's config plus the"
              + " scheduler's own; see docs/scheduler.md. Default: every default.")
  Path config;

  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description = "Port of /metrics, /healthz and /readyz. Default: ${DEFAULT-VALUE}.")
  int httpPort;

  @Option(
      names = "--debug-address",
      paramLabel = "HOST:PORT",
      defaultValue = DebugServer.DEFAULT_ADDRESS,
      description =
          "Where to serve the debug endpoints (/snapshot: every pod of the cluster as a scenario),"
              + " unauthenticated; keep it on the loopback and reach it with kubectl"
              + " port-forward. Default: ${DEFAULT-VALUE}.")
  String debugAddress;

  @Option(
      names = "--metrics-namespace",
      paramLabel = "NAME",
      defaultValue = SchedulerMetrics.DEFAULT_NAMESPACE,
      description =
          "The prefix of every metric name; kai serves exactly KAI's names, so KAI's dashboards"
              + " and alerts keep working. Default: ${DEFAULT-VALUE}.")
  String metricsNamespace;

  @Option(
      names = "--identity",
      paramLabel = "NAME",
      description =
          "This replica's name in the leader-election lease; default: $POD_NAME, else the host"
              + " name.")
  String identity;

  @CommandLine.Mixin LogFormatOptions logFormat;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      defaultValue = "0",
      description =
          "Requests a second to the API server, watches aside; 0: no client-side limit (the API"
              + " server's priority and fairness still applies). Default: ${DEFAULT-VALUE}.")
  double kubeApiQps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      defaultValue = "100",
      description = "Requests allowed at once under --kube-api-qps. Default: ${DEFAULT-VALUE}.")
  int kubeApiBurst;

  @Option(
      names = "--bind-concurrency",
      paramLabel = "N",
      description =
          "Binds under way at once, each on a connection of its own; default: the config's"
              + " bindConcurrency, else "
              + SchedulerSettings.DEFAULT_BIND_CONCURRENCY
              + ".")
  Integer bindConcurrency;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (!SchedulerMetrics.isNamespace(metricsNamespace)) {
      err.println(
          "error: --metrics-namespace: \""
              + metricsNamespace
              + "\" is not a Prometheus name (letters, digits and _, not starting with a digit)");
      err.flush();
      return SimulateCommand.INVALID;
    }
    SchedulerSettings settings;
    try {
      SchedulerFileSpec file =
          config == null ? SchedulerFileSpec.defaults() : SchedulerFileLoader.load(config);
      settings =
          connection.connect(
              SchedulerConfigFile.settings(file, identity(), namespace()),
              httpPort,
              spec.commandLine());
    } catch (ScenarioException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return SimulateCommand.INVALID;
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--http-port: " + e.getMessage());
    }
    InetSocketAddress debug;
    try {
      debug = DebugServer.parseAddress(debugAddress);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--debug-address: " + e.getMessage());
    }
    ApiRateLimit limit;
    try {
      limit = new ApiRateLimit(kubeApiQps, kubeApiBurst);
    } catch (IllegalArgumentException e) {
      err.println("error: --" + e.getMessage());
      err.flush();
      return SimulateCommand.INVALID;
    }
    if (bindConcurrency != null) {
      if (bindConcurrency < 1) {
        err.println("error: --bind-concurrency must be at least 1");
        err.flush();
        return SimulateCommand.INVALID;
      }
      settings = settings.withBindConcurrency(bindConcurrency);
    }
    LiveSchedulerWiring scheduler;
    try {
      scheduler =
          LiveSchedulerWiring.start(settings, debug, limit, metricsNamespace, Clock.systemUTC());
    } catch (IOException e) {
      return ClusterErrors.report(e, err);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    StopSignal.countDownOnStop(stopped);
    spec.commandLine()
        .getOut()
        .printf(
            "gantry scheduler %s: scheduling pods of %s; metrics on :%d%n",
            settings.leaderElection().identity(), settings.schedulerName(), scheduler.opsPort());
    spec.commandLine().getOut().flush();
    stopped.await();
    // binds under way finish (or are handed back to the next leader) before the lease is released
    scheduler.close();
    return SimulateCommand.OK;
  }

  private String identity() throws IOException {
    if (identity != null && !identity.isEmpty()) {
      return identity;
    }
    String pod = System.getenv("POD_NAME");
    return pod != null && !pod.isEmpty() ? pod : InetAddress.getLocalHost().getHostName();
  }

  private static String namespace() throws IOException {
    String env = System.getenv("POD_NAMESPACE");
    if (env != null && !env.isEmpty()) {
      return env;
    }
    Path file = Path.of(SERVICE_ACCOUNT_NAMESPACE);
    if (Files.isRegularFile(file)) {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    }
    return "default";
  }
}
