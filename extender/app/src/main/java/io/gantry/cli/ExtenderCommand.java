package io.gantry.cli;

import com.google.common.collect.ImmutableSet;
import io.gantry.extender.AdmissionWebhook;
import io.gantry.extender.ExtenderClusterSource;
import io.gantry.extender.ExtenderSettings;
import io.gantry.extender.ExtenderWiring;
import io.gantry.extender.TlsSettings;
import io.gantry.kubemodel.config.SchedulerFileLoader;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.nodecommon.cli.LogFormatOptions;
import io.gantry.nodecommon.cli.StopSignal;
import io.gantry.scheduler.api.config.GoDuration;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry extender}: serves kube-scheduler's HTTP extender protocol (filter, prioritize,
 * preempt, bind) with Gantry's engine, over the live cluster or over a scenario file's cluster,
 * until stopped (SIGTERM or SIGINT: a graceful stop, exit status 0). Exit status 2 when the
 * configuration or the scenario is invalid, or the cluster's configuration cannot be read.
 */
@Command(
    name = "extender",
    mixinStandardHelpOptions = true,
    description =
        "Serve kube-scheduler's HTTP extender protocol (POST /filter, /prioritize, /preempt,"
            + " /bind), the pod admission webhook (POST /admit) and GET /healthz, /metrics so that the stock kube-scheduler places pods with"
            + " Gantry's gang, queue and GPU-sharing rules. See docs/extender.md.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:stopped by a signal",
      "2:the configuration or scenario is invalid, the cluster's configuration cannot be read,"
          + " or its API server does not answer within --startup-timeout"
    })
final class ExtenderCommand implements Callable<Integer> {
  /** kube-scheduler profiles schedule their pods under this name unless configured otherwise. */
  static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";

  @Option(
      names = "--scenario",
      paramLabel = "FILE",
      description =
          "Serve the cluster of this scenario file instead of a live cluster: no cluster needed,"
              + " binds are kept in memory, a pod's UID is its task id (namespace/job/task).")
  Path scenario;

  @CommandLine.Mixin ConnectionOptions connection = new ConnectionOptions();

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The scheduler configuration (YAML), as for gantry scheduler; its schedulerName names"
              + " the pods the extender plans (default here: "
              + DEFAULT_SCHEDULER_NAME
              + "). Ignored with --scenario, whose config: block applies.")
  Path config;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "" + ExtenderSettings.DEFAULT_PORT,
      description = "Port the extender listens on. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(
      names = "--reservation-ttl",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description =
          "How long capacity planned for a gang stays reserved for it while its pods go through"
              + " filter and bind (Go duration). Default: ${DEFAULT-VALUE}.")
  String reservationTtl;

  @Option(
      names = "--http-timeout",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description =
          "The httpTimeout of this extender in kube-scheduler's configuration; a gang member"
              + " waits in bind for the others at most 4/5 of it. Default: ${DEFAULT-VALUE}.")
  String httpTimeout;

  @Option(
      names = "--fair-share-waiting",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Plan all pending PodGroups together in fair-share order, so pods of queues over their"
              + " fair share wait while queues ahead have pending work that fits"
              + " (--no-fair-share-waiting: plan each PodGroup alone). Default: on.")
  boolean fairShareWaiting;

  @Option(
      names = "--max-request-bytes",
      paramLabel = "BYTES",
      defaultValue = "" + ExtenderSettings.DEFAULT_MAX_REQUEST_BYTES,
      description = "The largest request body accepted (413 above). Default: ${DEFAULT-VALUE}.")
  int maxRequestBytes;

  @Option(
      names = "--network-threads",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Network threads, which answer most requests themselves; 0: one per available core."
              + " Default: ${DEFAULT-VALUE}.")
  int networkThreads;

  @Option(
      names = "--request-timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      description =
          "How long a client may take to send one whole request (408 after)."
              + " Default: ${DEFAULT-VALUE}.")
  String requestTimeout;

  @Option(
      names = "--webhook-failure-policy",
      paramLabel = "POLICY",
      defaultValue = "Fail",
      description =
          "What the admission webhook (POST /admit) answers for a review whose pod it cannot"
              + " read: Fail (deny) or Ignore (admit unchanged). Default: ${DEFAULT-VALUE}.")
  AdmissionWebhook.FailurePolicy webhookFailurePolicy;

  @Option(
      names = "--webhook-skip-namespace",
      paramLabel = "NAMESPACE",
      split = ",",
      defaultValue = "kube-system",
      description =
          "Namespaces whose pods the admission webhook admits unchanged (repeatable or"
              + " comma-separated). Default: ${DEFAULT-VALUE}.")
  List<String> webhookSkippedNamespaces;

  @Option(
      names = "--tls-cert-file",
      paramLabel = "FILE",
      description =
          "PEM certificate chain to serve HTTPS with (only HTTPS, on --port); needs"
              + " --tls-key-file. Reloaded when the file changes.")
  Path tlsCertFile;

  @Option(
      names = "--tls-key-file",
      paramLabel = "FILE",
      description =
          "PKCS#8 PEM private key of --tls-cert-file; needs --tls-cert-file. Reloaded when the"
              + " file changes.")
  Path tlsKeyFile;

  @CommandLine.Mixin LogFormatOptions logFormat;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    ExtenderSettings settings = settings();
    ExtenderClusterSource source;
    try {
      source = scenario != null ? ExtenderClusterSources.scenario(scenario) : liveSource();
    } catch (ScenarioException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return SimulateCommand.INVALID;
    }
    ExtenderWiring extender;
    try {
      extender = ExtenderWiring.start(settings, source, Clock.systemUTC());
    } catch (IOException e) {
      return ClusterErrors.report(e, err);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return SimulateCommand.INVALID;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    StopSignal.countDownOnStop(stopped);
    spec.commandLine()
        .getOut()
        .printf(
            "gantry extender: serving %s on :%d (%s)%n",
            extender.description(), extender.port(), settings.tls().isPresent() ? "https" : "http");
    spec.commandLine().getOut().flush();
    stopped.await();
    // answers under way (a gang's binds among them) end before the cluster's caches close
    extender.close();
    return SimulateCommand.OK;
  }

  /**
   * The live cluster of the scheduler file's {@code schedulerName}, by default kube-scheduler's
   * own.
   */
  private ExtenderClusterSource liveSource() throws ScenarioException {
    SchedulerFileSpec file =
        config == null ? SchedulerFileSpec.defaults() : SchedulerFileLoader.load(config);
    SchedulerSettings scheduler =
        connection.connect(
            SchedulerConfigFile.settings(file, "extender", "default"),
            SchedulerSettings.DEFAULT_OPS_PORT,
            spec.commandLine());
    if (file.schedulerName().isEmpty()) {
      scheduler = scheduler.withSchedulerName(DEFAULT_SCHEDULER_NAME);
    }
    return ExtenderClusterSources.live(scheduler);
  }

  private ExtenderSettings settings() {
    if (networkThreads < 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--network-threads must be 0 (one per core) or more, got " + networkThreads);
    }
    try {
      return new ExtenderSettings(
          duration(reservationTtl, "--reservation-ttl"),
          duration(httpTimeout, "--http-timeout"),
          fairShareWaiting,
          maxRequestBytes,
          duration(requestTimeout, "--request-timeout"),
          networkThreads,
          port,
          tls(),
          webhookFailurePolicy,
          ImmutableSet.copyOf(webhookSkippedNamespaces));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** Both TLS files or neither: one alone is a usage error naming the missing flag. */
  private Optional<TlsSettings> tls() {
    if (tlsCertFile == null && tlsKeyFile == null) {
      return Optional.empty();
    }
    if (tlsKeyFile == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--tls-cert-file needs --tls-key-file");
    }
    if (tlsCertFile == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--tls-key-file needs --tls-cert-file");
    }
    return Optional.of(
        new TlsSettings(tlsCertFile, tlsKeyFile, TlsSettings.DEFAULT_CHECK_INTERVAL));
  }

  private Duration duration(String text, String option) {
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), option + ": expected a duration such as 5s or 1m30s, got " + text);
    }
  }
}
