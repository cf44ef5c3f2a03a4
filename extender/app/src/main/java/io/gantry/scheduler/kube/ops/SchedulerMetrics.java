package io.gantry.scheduler.kube.ops;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.util.concurrent.AtomicDouble;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The scheduler's Prometheus metrics: every scheduler and queue metric of KAI (kai-reference §11,
 * kai-observability.md) with KAI's types, units and labels, Gantry's own (pending pods by queue and
 * reason, schedule attempts by result, evictions by action), and Micrometer's JVM and process
 * binders. Every name starts with the metrics namespace and an underscore: {@code gantry} by
 * default, {@code kai} for exactly KAI's names. {@link KaiMetricNames} lists KAI's names; the
 * cycle's own values arrive through {@link CycleMeters} (timings and what the actions tried) and
 * {@link QueueMeters}.
 */
public final class SchedulerMetrics implements AutoCloseable {
  public static final String DEFAULT_NAMESPACE = "gantry";

  /**
   * The prefix of Gantry's metrics that KAI has no name for and that keep it whatever the
   * namespace.
   */
  public static final String PREFIX = DEFAULT_NAMESPACE + "_";

  private static final Pattern NAMESPACE = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /** KAI's latency buckets in milliseconds: exponential, 5 doubling to 2560. */
  static final double[] LATENCY_BUCKETS_MS = exponential(5, 10);

  /** KAI's scenario search buckets: exponential, 1 ms doubling to 32.768 s. */
  static final Duration[] SEARCH_BUCKETS = searchBuckets();

  private final String prefix;
  private final String nodePool;
  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gc;
  private final DistributionSummary taskSchedulingLatency;
  private final DistributionSummary bindLatency;
  private final DistributionSummary usageQueryLatency;
  private final QueueMeters queues;
  private final PendingPodMeters pending;
  private final NodeMeters nodes;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, AtomicDouble> gauges = new ConcurrentHashMap<>();
  private final Map<String, Timer> searchDurations = new ConcurrentHashMap<>();

  /** Metrics named under {@link #DEFAULT_NAMESPACE}, of the default node pool. */
  public SchedulerMetrics() {
    this(DEFAULT_NAMESPACE, NodePool.DEFAULT_NAME);
  }

  /**
   * Metrics named under {@code namespace}, of the scheduler of node pool {@code nodePool} (KAI's
   * {@code nodepool} label).
   *
   * @throws IllegalArgumentException when {@code namespace} is not a Prometheus name
   */
  public SchedulerMetrics(String namespace, String nodePool) {
    requireNonNull(namespace, "namespace is null");
    this.nodePool = requireNonNull(nodePool, "nodePool is null");
    if (!isNamespace(namespace)) {
      throw new IllegalArgumentException(
          "metrics namespace \""
              + namespace
              + "\" is not a Prometheus name (letters, digits and _, not starting with a digit)");
    }
    this.prefix = namespace + "_";
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    this.gc = new JvmGcMetrics();
    gc.bindTo(registry);
    this.taskSchedulingLatency =
        latencyHistogram("task_scheduling_latency_milliseconds", "pod creation to bind attempt");
    this.bindLatency = latencyHistogram("task_bind_latency_milliseconds", "bind request to bound");
    this.usageQueryLatency =
        latencyHistogram("usage_query_latency_milliseconds", "one usage-database query");
    this.queues = new QueueMeters(registry, prefix);
    this.pending = new PendingPodMeters(registry, prefix);
    this.nodes = new NodeMeters(registry, prefix);
  }

  /** Whether {@code namespace} can start a Prometheus metric name. */
  public static boolean isNamespace(String namespace) {
    return NAMESPACE.matcher(namespace).matches();
  }

  private DistributionSummary latencyHistogram(String name, String description) {
    return DistributionSummary.builder(prefix + name)
        .description(description)
        .serviceLevelObjectives(LATENCY_BUCKETS_MS)
        .register(registry);
  }

  /** The name of a metric in this namespace. */
  String name(String kaiName) {
    return prefix + kaiName;
  }

  public MeterRegistry registry() {
    return registry;
  }

  /**
   * The Prometheus text exposition of every metric, KAI's metrics under KAI's own names ({@link
   * KaiMetricNames#restoreKaiNames}).
   */
  public String scrape() {
    return KaiMetricNames.restoreKaiNames(registry.scrape(), prefix);
  }

  /** A listener that times one cycle's phases and counts what its actions try. */
  public CycleMeters cycleMeters() {
    return new CycleMeters(this);
  }

  /** The cycle's queues: quota, fair share, allocation and usage. */
  public QueueMeters queues() {
    return queues;
  }

  /** Pending pods by queue and reason, replaced after every cycle. */
  public PendingPodMeters pending() {
    return pending;
  }

  /** GPUs per node, replaced after every cycle. */
  public NodeMeters nodes() {
    return nodes;
  }

  /** A bind was attempted {@code sinceCreation} after its pod was created. */
  public void taskScheduled(Duration sinceCreation) {
    taskSchedulingLatency.record(Math.max(0, sinceCreation.toNanos() / 1e6));
  }

  /** A bind, decision to binding created, took {@code millis}. */
  public void bind(double millis) {
    bindLatency.record(millis);
    scheduleAttempt("scheduled");
  }

  /** A bind failed for good: the pod stays pending with a BindingError condition. */
  public void bindFailed() {
    scheduleAttempt("error");
  }

  /** A usage-database query took {@code millis}. */
  public void usageQuery(double millis) {
    usageQueryLatency.record(millis);
  }

  /** One pod's attempt ended with {@code result}: scheduled, unschedulable or error. */
  void scheduleAttempt(String result) {
    scheduleAttempts(result, 1);
  }

  /** {@code pods} attempts ended with {@code result}. */
  void scheduleAttempts(String result, long pods) {
    counter("schedule_attempts", Tags.of("result", result)).increment(pods);
  }

  /**
   * Publishes what the cycle decided and left, and the cycle's whole time ({@code
   * e2e_scheduling_latency}, snapshot to decisions handed to the writers).
   */
  public void cycle(CycleResult result, LiveSnapshot live, double millis) {
    CycleOutcomeMeters.record(this, result, live);
    set("e2e_scheduling_latency_milliseconds", Tags.empty(), millis);
  }

  /**
   * One pod evicted: KAI's {@code pod_group_evicted_pods_total} for its PodGroup and Gantry's
   * {@code evictions} by action.
   */
  void evicted(String podGroup, String uid, String action) {
    counter(
            "pod_group_evicted_pods_total",
            Tags.of("podgroup", podGroup, "uid", uid, "nodepool", nodePool, "action", action))
        .increment();
    counter("evictions", Tags.of("action", action)).increment();
  }

  /**
   * What the configuration sets: KAI's configured search budgets, in seconds (0 unlimited), per
   * action the configuration runs, per job and per scenario generator; and each per-action counter
   * at 0 for every configured action, so a dashboard shows 0 rather than no data.
   */
  public void configured(SchedulerConfig engine) {
    SearchBudgets budgets = engine.evictions().budgets();
    counter("total_preemption_attempts", Tags.empty());
    for (String action : engine.actions()) {
      Tags tags = Tags.of("action", action);
      for (String name :
          ImmutableList.of(
              "podgroups_scheduled_by_action",
              "podgroups_acted_on_by_action",
              "scenarios_simulation_by_action",
              "scenarios_filtered_by_action",
              "scenario_search_action_budget_exhausted_total",
              "evictions")) {
        counter(name, tags);
      }
      gauge(
          "scenario_search_action_budget_configured_seconds",
          Tags.of("action", action),
          seconds(budgets.action(action)));
    }
    gauge(
        "scenario_search_job_budget_configured_seconds",
        Tags.empty(),
        seconds(budgets.maxJobSearchDuration()));
    for (String generator :
        ImmutableList.of(SearchBudgets.NODE_LOCAL_GREEDY, SearchBudgets.MULTI_NODE_GANG)) {
      gauge(
          "scenario_search_generator_budget_configured_seconds",
          Tags.of("generator", generator),
          seconds(budgets.generator(generator)));
    }
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private void gauge(String name, Tags tags, double value) {
    Gauge.builder(prefix + name, () -> value).tags(tags).register(registry);
  }

  /** Sets the gauge of {@code name} and {@code tags}, registered on first use. */
  void set(String name, Tags tags, double value) {
    String key = name + tags;
    AtomicDouble g = gauges.get(key);
    if (g == null) {
      g =
          gauges.computeIfAbsent(
              key,
              k -> {
                AtomicDouble v = new AtomicDouble();
                Gauge.builder(prefix + name, v, AtomicDouble::get).tags(tags).register(registry);
                return v;
              });
    }
    g.set(value);
  }

  /** KAI's {@code scenario_search_duration_seconds} of one action, generator and result. */
  void searchDuration(String action, String generator, String result, long nanos) {
    Tags tags = Tags.of("action", action, "generator", generator, "result", result);
    searchDurations
        .computeIfAbsent(
            tags.toString(),
            k ->
                Timer.builder(prefix + "scenario_search_duration")
                    .description("one scenario generator's search for one job")
                    .tags(tags)
                    .serviceLevelObjectives(SEARCH_BUCKETS)
                    .register(registry))
        .record(Duration.ofNanos(nanos));
  }

  /** The counter of {@code name} and {@code tags}, registered on first use. */
  Counter counter(String name, Tags tags) {
    String key = name + tags;
    Counter c = counters.get(key);
    if (c == null) {
      c = counters.computeIfAbsent(key, k -> registry.counter(prefix + name, tags));
    }
    return c;
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }

  private static double[] exponential(double start, int count) {
    double[] out = new double[count];
    for (int i = 0; i < count; i++) {
      out[i] = start * Math.pow(2, i);
    }
    return out;
  }

  private static Duration[] searchBuckets() {
    ImmutableList.Builder<Duration> out = ImmutableList.builder();
    for (int i = 0; i < 16; i++) {
      out.add(Duration.ofMillis(1L << i));
    }
    return out.build().toArray(new Duration[0]);
  }
}
