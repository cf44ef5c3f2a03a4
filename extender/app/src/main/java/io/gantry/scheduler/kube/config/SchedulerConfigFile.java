package io.gantry.scheduler.kube.config;

import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.kubemodel.config.ConfigSpec;
import io.gantry.kubemodel.config.PluginSpec;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.config.UsageDbSpec;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.kube.lease.LeaderElection;
import io.gantry.scheduler.kube.usage.UsageDb;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A loaded scheduler configuration file ({@link SchedulerFileSpec}) as the scheduler's {@link
 * SchedulerSettings}. The engine part is checked here by building a cycle from it, so a bad action,
 * plugin or argument stops start-up with the key and its line ({@link ConfigException#key()}).
 */
public final class SchedulerConfigFile {
  public static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  public static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
  public static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  private SchedulerConfigFile() {}

  /**
   * The scheduler's settings from its configuration file, checked as start-up checks them.
   *
   * @param identity this replica's name in the lease (the pod's name)
   * @param namespace the namespace of the lease when the file names none (the pod's namespace)
   * @throws ScenarioException naming the file, line and key of the first bad setting
   */
  public static SchedulerSettings settings(
      SchedulerFileSpec file, String identity, String namespace) throws ScenarioException {
    return settings(file, identity, namespace, System.getenv());
  }

  /** The same, reading {@code usageDBConfig.connectionStringEnvVar} from {@code env}. */
  public static SchedulerSettings settings(
      SchedulerFileSpec file, String identity, String namespace, Map<String, String> env)
      throws ScenarioException {
    SchedulerConfig engine = engine(file);
    try {
      new SchedulerWiring(new CelDeviceSelectors()).cycle(engine);
    } catch (ConfigException e) {
      throw new ScenarioException(file.sourceName(), file.line(e.key()), e.key(), e.problem());
    }
    String schedulerName = file.schedulerName().orElse(SchedulerSettings.DEFAULT_SCHEDULER_NAME);
    LeaderElection election;
    try {
      election =
          new LeaderElection(
              file.leaderElect().orElse(true),
              file.leaseNamespace().orElse(namespace),
              file.leaseName().orElse(schedulerName),
              identity,
              file.leaseDuration().orElse(LEASE_DURATION),
              file.renewDeadline().orElse(RENEW_DEADLINE),
              file.retryPeriod().orElse(RETRY_PERIOD));
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(
          file.sourceName(), file.line("leaderElection"), "leaderElection", e.getMessage());
    }
    return new SchedulerSettings(
        schedulerName,
        file.schedulePeriod().orElse(SchedulerSettings.DEFAULT_SCHEDULE_PERIOD),
        new NodePool(file.nodePoolLabelKey(), file.nodePoolLabelValue()),
        file.queueLabelKey().orElse(QueueAssignment.DEFAULT_QUEUE_LABEL_KEY),
        engine,
        election,
        file.bindConcurrency().orElse(SchedulerSettings.DEFAULT_BIND_CONCURRENCY),
        file.statusWritesPerSecond().orElse(SchedulerSettings.DEFAULT_STATUS_WRITES_PER_SECOND),
        file.eventsPerSecond().orElse(SchedulerSettings.DEFAULT_EVENTS_PER_SECOND),
        usageDb(file, env),
        file.defaultPrioritiesConfigMapNamespace()
            .flatMap(ns -> file.defaultPrioritiesConfigMapName().map(name -> ns + "/" + name)),
        // the command line, not the file, names these (SchedulerSettings.withConnection)
        ClusterAccess.defaults(),
        SchedulerSettings.DEFAULT_STARTUP_TIMEOUT,
        SchedulerSettings.DEFAULT_OPS_PORT,
        file.gpuSharing());
  }

  /**
   * The usage database of {@code usageDBConfig}: its address from {@code connectionString}, else
   * from the environment variable {@code connectionStringEnvVar} names; an absolute http(s) URL.
   */
  private static Optional<UsageDb> usageDb(SchedulerFileSpec file, Map<String, String> env)
      throws ScenarioException {
    if (file.usageDb().isEmpty()) {
      return Optional.empty();
    }
    UsageDbSpec spec = file.usageDb().get();
    String key = "usageDBConfig.connectionString";
    String address;
    if (spec.connectionString().isPresent()) {
      address = spec.connectionString().get();
    } else {
      key = "usageDBConfig.connectionStringEnvVar";
      String variable = spec.connectionStringEnvVar().orElseThrow();
      address = env.get(variable);
      if (address == null || address.isEmpty()) {
        throw new ScenarioException(
            file.sourceName(),
            file.line(key),
            key,
            "environment variable " + variable + " is not set");
      }
    }
    URI uri;
    try {
      uri = new URI(address);
    } catch (URISyntaxException e) {
      throw new ScenarioException(
          file.sourceName(), file.line(key), key, "not a URL: \"" + address + "\"");
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new ScenarioException(
          file.sourceName(),
          file.line(key),
          key,
          "expected an http or https URL of Prometheus, got \"" + address + "\"");
    }
    return Optional.of(new UsageDb(uri, spec));
  }

  /** The engine configuration the file's shared keys describe, as a scenario's would. */
  static SchedulerConfig engine(SchedulerFileSpec file) throws ScenarioException {
    ConfigSpec c = file.config();
    Map<String, PluginSetting> plugins = new TreeMap<>();
    for (Map.Entry<String, PluginSpec> e : c.plugins().entrySet()) {
      plugins.put(e.getKey(), new PluginSetting(e.getValue().enabled(), e.getValue().arguments()));
    }
    return SchedulerConfig.of(
            c.actions().orElse(SchedulerConfig.DEFAULT_ACTIONS),
            plugins,
            new Placement(
                strategy(file, c.gpuPlacement().orElse("binpack"), "placement.gpu"),
                strategy(file, c.cpuPlacement().orElse("binpack"), "placement.cpu")),
            c.evictionSettings())
        .withQueueDepthPerAction(c.queueDepths());
  }

  private static PlacementStrategy strategy(SchedulerFileSpec file, String value, String key)
      throws ScenarioException {
    try {
      return PlacementStrategy.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(file.sourceName(), file.line(key), key, e.getMessage());
    }
  }
}
