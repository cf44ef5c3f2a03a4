package io.gantry.cli.e2e;

import static java.util.Objects.requireNonNull;

import com.sun.management.OperatingSystemMXBean;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.scheduler.kube.ApiRateLimit;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.LiveSchedulerWiring;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.write.KubeWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs an end-to-end preset: fills a fake API server on loopback ({@link BenchCluster}), starts the
 * live scheduler against it through a kubeconfig, exactly as {@code gantry scheduler} starts
 * without {@code --config}, and times every pod until all are bound ({@link BindClock}). Then the
 * ceiling: a fresh server with the same objects, and the scheduler's client machinery ({@link
 * KubeClients}, {@link KubeWriter#bind}) posting the same bindings, and nothing else, from as many
 * threads as the scheduler binds with.
 */
public final class E2eBench {
  private static final Duration CYCLE_END_WAIT = Duration.ofSeconds(30);

  // the debug endpoints of the scheduler under test, on a port nobody else needs
  private static final InetSocketAddress LOOPBACK_ANY_PORT =
      new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

  // the in-process fake API server answers at once; a slow start is a failure
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

  // enough bindings for the JIT to compile the bind path on both sides; a few seconds
  private static final int WARM_UP_NODES = 1_000;

  private static final String FAKE_SERVER_THREADS = "fake-kube-http-";

  private final Consumer<String> progress;

  public E2eBench(Consumer<String> progress) {
    this.progress = requireNonNull(progress, "progress is null");
  }

  /** Runs {@code workload}; {@code name} labels the result. */
  public E2eResult run(String name, E2eWorkload workload) throws IOException, InterruptedException {
    // the JDK HTTP server under the fake writes headers and body apart; without TCP_NODELAY,
    // Nagle's algorithm and delayed ACKs hold each answer ~40 ms. Read when its first server
    // starts.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    Path dir = Files.createTempDirectory("gantry-bench-e2e");
    try {
      warmUp(name, workload, dir);
      Live live = runScheduler(name, workload, dir);
      Ceiling ceiling = runCeiling(name, workload, dir, live);
      double ratio =
          ceiling.podsPerSecond() > 0 ? live.podsPerSecond() / ceiling.podsPerSecond() : 0;
      int writes = ApiRequestTally.writes(live.requests());
      return new E2eResult(
          name,
          workload.nodes(),
          workload.pods(),
          live.bound().size() == workload.pods(),
          live.bound().size(),
          live.podsPerSecond(),
          live.startToFirstBindMillis(),
          live.createdToBoundP50Millis(),
          live.createdToBoundP99Millis(),
          live.cycles(),
          live.requests(),
          writes / (double) Math.max(1, live.bound().size()),
          live.peakHeapBytes(),
          live.processCpuSeconds(),
          live.fakeServerCpuSeconds(),
          ceiling.podsPerSecond(),
          ceiling.allBound(),
          ratio);
    } finally {
      deleteDirectory(dir);
    }
  }

  /**
   * Measures the scheduler's heap: the heap after a full collection with the fake server holding
   * {@code nodes} nodes and {@code podsPerNode} running pods on each, then again once the scheduler
   * started on it has synced its caches and run two cycles.
   */
  public MemoryResult runMemory(String name, int nodes, int podsPerNode)
      throws IOException, InterruptedException {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    Path dir = Files.createTempDirectory("gantry-bench-memory");
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      progress.accept(
          name + ": creating " + nodes + " nodes and " + nodes * podsPerNode + " running pods");
      BenchCluster.populateRunning(kube, nodes, podsPerNode);
      long server = heapAfterFullGc();
      progress.accept(name + ": starting the scheduler");
      long cycles;
      long total;
      try (LiveSchedulerWiring scheduler =
          LiveSchedulerWiring.start(
              settings(kubeconfig(dir, kube.url())),
              LOOPBACK_ANY_PORT,
              ApiRateLimit.NONE,
              SchedulerMetrics.DEFAULT_NAMESPACE,
              Clock.systemUTC())) {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (scheduler.scheduler().cycles() < 2 && System.nanoTime() < deadline) {
          Thread.sleep(1_000);
        }
        cycles = scheduler.scheduler().cycles();
        total = heapAfterFullGc();
      }
      return new MemoryResult(
          name, nodes, nodes * podsPerNode, cycles, server, total, total - server);
    } finally {
      deleteDirectory(dir);
    }
  }

  /** Deletes the bench's temporary directory and the kubeconfigs in it. */
  private static void deleteDirectory(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
    }
    Files.deleteIfExists(dir);
  }

  /** The heap in use after two full collections (System.gc() is a full one under G1's default). */
  private static long heapAfterFullGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** What the scheduler's run measured. */
  private record Live(
      SortedMap<String, BindClock.Bound> bound,
      double podsPerSecond,
      double startToFirstBindMillis,
      double createdToBoundP50Millis,
      double createdToBoundP99Millis,
      long cycles,
      SortedMap<String, Integer> requests,
      long peakHeapBytes,
      double processCpuSeconds,
      double fakeServerCpuSeconds) {}

  private record Ceiling(double podsPerSecond, boolean allBound) {}

  private Live runScheduler(String name, E2eWorkload workload, Path dir)
      throws IOException, InterruptedException {
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      progress.accept(
          name + ": creating " + workload.nodes() + " nodes and " + workload.pods() + " pods");
      List<BenchCluster.CreatedPod> pods = BenchCluster.populate(kube, workload);
      BindClock clock = new BindClock(pods.size());
      kube.store().subscribe(clock);
      SchedulerSettings settings = settings(kubeconfig(dir, kube.url()));
      collectGarbage();
      resetHeapPeaks();
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuStart = os.getProcessCpuTime();
      ThreadCpu serverCpu = new ThreadCpu(FAKE_SERVER_THREADS);
      progress.accept(name + ": starting the scheduler");
      long start = System.nanoTime();
      long cycles;
      try (LiveSchedulerWiring scheduler =
          LiveSchedulerWiring.start(
              settings,
              LOOPBACK_ANY_PORT,
              ApiRateLimit.NONE,
              SchedulerMetrics.DEFAULT_NAMESPACE,
              Clock.systemUTC())) {
        await(name, clock, pods.size());
        // a cycle counts once it has finished (statuses, metrics), which can be after its last bind
        long deadline = System.nanoTime() + CYCLE_END_WAIT.toNanos();
        while (scheduler.scheduler().cycles() < 1 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        cycles = scheduler.scheduler().cycles();
      }
      kube.store().unsubscribe(clock);
      double serverSeconds = serverCpu.stop();
      double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
      long peakHeap = heapPeak();
      SortedMap<String, BindClock.Bound> bound = clock.bound();
      long first = Long.MAX_VALUE;
      long last = start;
      for (BindClock.Bound b : bound.values()) {
        first = Math.min(first, b.boundNanos());
        last = Math.max(last, b.boundNanos());
      }
      double[] latencies =
          pods.stream()
              .filter(p -> bound.containsKey(p.name()))
              .mapToDouble(p -> (bound.get(p.name()).boundNanos() - p.createdNanos()) / 1e6)
              .sorted()
              .toArray();
      double seconds = (last - start) / 1e9;
      return new Live(
          bound,
          seconds > 0 ? bound.size() / seconds : 0,
          bound.isEmpty() ? 0 : (first - start) / 1e6,
          percentile(latencies, 0.5),
          percentile(latencies, 0.99),
          cycles,
          ApiRequestTally.byVerbAndResource(kube.requests()),
          peakHeap,
          cpuSeconds,
          serverSeconds);
    }
  }

  private Ceiling runCeiling(String name, E2eWorkload workload, Path dir, Live live)
      throws IOException, InterruptedException {
    progress.accept(
        name
            + ": ceiling: posting "
            + live.bound().size()
            + " bindings on "
            + SchedulerSettings.DEFAULT_BIND_CONCURRENCY
            + " threads");
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      List<BenchCluster.CreatedPod> pods = BenchCluster.populate(kube, workload);
      return postBindings(name + ": ceiling", kube, dir, pods, live.bound());
    }
  }

  /**
   * Posts the bindings of a small cluster before either measured run, so that both meet a fake
   * server and a bind client the JIT has already compiled. Without it the scheduler's run, which
   * comes first, paid for compiling the server's bind path and the ceiling came after it warm.
   */
  private void warmUp(String name, E2eWorkload workload, Path dir)
      throws IOException, InterruptedException {
    E2eWorkload small = E2eWorkload.of(Math.min(workload.nodes(), WARM_UP_NODES));
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      List<BenchCluster.CreatedPod> pods = BenchCluster.populate(kube, small);
      SortedMap<String, BindClock.Bound> bindings = new TreeMap<>();
      for (int i = 0; i < pods.size(); i++) {
        String node = BenchCluster.nodeName(i / 10);
        bindings.put(
            pods.get(i).name(),
            new BindClock.Bound(
                0,
                node,
                Map.of(
                    GpuAllocation.ANNOTATION,
                    GpuAllocationJson.write(GpuAllocation.whole(node, 1)))));
      }
      progress.accept(name + ": warming up: " + bindings.size() + " bindings");
      if (!postBindings(name + ": warm-up", kube, dir, pods, bindings).allBound()) {
        // a server that loses bindings here would make both measured runs meaningless
        throw new IOException("warm-up: the fake API server did not store every binding");
      }
    }
  }

  /**
   * Posts {@code bindings} (pod name to node and annotations) of {@code pods}, in their order, with
   * the scheduler's client machinery: the connections {@link LiveSchedulerWiring} gives the
   * scheduler, one for each concurrent bind, and as many threads.
   */
  private Ceiling postBindings(
      String label,
      FakeKubeServer kube,
      Path dir,
      List<BenchCluster.CreatedPod> pods,
      SortedMap<String, BindClock.Bound> bindings)
      throws IOException, InterruptedException {
    BindClock clock = new BindClock(bindings.size());
    kube.store().subscribe(clock);
    int threads = SchedulerSettings.DEFAULT_BIND_CONCURRENCY;
    KubeWriter writer =
        new KubeWriter(
            KubeClients.withLimits(
                KubeClients.connect(
                    ClusterAccess.ofKubeconfig(kubeconfig(dir, kube.url())), STARTUP_TIMEOUT),
                ApiRateLimit.NONE,
                threads));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger failed = new AtomicInteger();
    collectGarbage();
    long start = System.nanoTime();
    for (BenchCluster.CreatedPod pod : pods) {
      BindClock.Bound b = bindings.get(pod.name());
      if (b == null) {
        continue;
      }
      pool.execute(
          () -> {
            try {
              if (!writer.bind(E2eWorkload.NAMESPACE, pod.name(), b.node(), b.annotations()).ok()) {
                failed.incrementAndGet();
              }
            } catch (Exception e) {
              failed.incrementAndGet();
            }
          });
    }
    pool.shutdown();
    boolean all = await(label, clock, bindings.size());
    pool.shutdownNow();
    long last = start;
    for (BindClock.Bound b : clock.bound().values()) {
      last = Math.max(last, b.boundNanos());
    }
    double seconds = (last - start) / 1e9;
    kube.store().unsubscribe(clock);
    return new Ceiling(seconds > 0 ? clock.count() / seconds : 0, all && failed.get() == 0);
  }

  /**
   * Waits until {@code pods} are bound, reporting progress every five seconds, at most two minutes
   * plus 10 ms a pod.
   */
  private boolean await(String label, BindClock clock, int pods) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).plusMillis(10L * pods).toNanos();
    while (System.nanoTime() < deadline) {
      if (clock.awaitAll(Duration.ofSeconds(5))) {
        return true;
      }
      progress.accept(label + ": " + clock.count() + " of " + pods + " pods bound");
    }
    return clock.count() == pods;
  }

  /**
   * The settings {@code gantry scheduler} runs with when given no {@code --config}, but sharing
   * GPUs in {@code device-plugin} mode: the fake cluster runs no pods, so no reservation pod would
   * ever report its GPU, and a fraction pod's bind is the same single Binding in both modes once
   * the reservation exists.
   */
  private static SchedulerSettings settings(Path kubeconfig) {
    try {
      return SchedulerConfigFile.settings(
              SchedulerFileSpec.defaults(), "gantry-bench", "gantry-system", Map.of())
          .withConnection(ClusterAccess.ofKubeconfig(kubeconfig), STARTUP_TIMEOUT, 0)
          .withGpuSharing(GpuSharingSpec.DEVICE_PLUGIN);
    } catch (ScenarioException e) {
      throw new IllegalStateException("the default scheduler settings are invalid", e);
    }
  }

  /** A kubeconfig naming only the server's URL, as kubectl would read it. */
  private static Path kubeconfig(Path dir, String url) throws IOException {
    Path file = dir.resolve("kubeconfig-" + url.substring(url.lastIndexOf(':') + 1));
    Files.writeString(
        file,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: fake",
            "  cluster:",
            "    server: " + url,
            "users:",
            "- name: bench",
            "  user: {}",
            "contexts:",
            "- name: fake",
            "  context:",
            "    cluster: fake",
            "    user: bench",
            "current-context: fake",
            ""),
        StandardCharsets.UTF_8);
    return file;
  }

  /** The nearest-rank percentile of sorted values; 0 for none. */
  private static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))];
  }

  private static void collectGarbage() {
    System.gc();
  }

  private static List<MemoryPoolMXBean> heapPools() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .toList();
  }

  private static void resetHeapPeaks() {
    heapPools().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  /** The sum of the heap pools' peaks: a ceiling on the heap's own peak. */
  private static long heapPeak() {
    return heapPools().stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }
}
