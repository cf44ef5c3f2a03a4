package io.gantry.extender;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.SchedulerWiring;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.sim.cel.CelDeviceSelectors;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Measures the extender as kube-scheduler loads it: {@code callers} threads, each on its own
 * keep-alive connection, send {@code filter} then {@code prioritize} with every node's name ({@code
 * nodeCacheCapable: true}) for pending pods of a generated cluster, over real HTTP on loopback. The
 * first request plans every pending PodGroup in one engine cycle (timed on its own); the rest are
 * answered from the reservations. The baseline, in the same run and on the same server, is a {@code
 * filter} for a pod Gantry does not manage: the same request and transport, answered without a
 * plan, so the ratio is what Gantry's rules cost over the protocol itself.
 */
public final class ExtenderBench {
  /** The median and 99th percentile latency of one kind of request, in microseconds. */
  public record Latencies(String name, long p50Micros, long p99Micros) {}

  /** What one run measured. */
  public record Result(
      int nodes,
      int callers,
      long planMillis,
      Latencies filter,
      Latencies prioritize,
      Latencies baseline) {}

  private ExtenderBench() {}

  /**
   * Serves {@code snapshot} and sends {@code rounds} rounds of filter and prioritize per caller
   * over its pending pods, after {@code warmup} rounds that are not counted.
   */
  public static Result run(
      ClusterSnapshot snapshot, SchedulerConfig config, int callers, int rounds, int warmup)
      throws IOException, InterruptedException, java.util.concurrent.ExecutionException {
    List<String> pods = pendingPods(snapshot);
    if (pods.isEmpty()) {
      throw new IllegalArgumentException("the cluster has no pending pod to filter");
    }
    StringBuilder names = new StringBuilder();
    for (NodeInfo n : snapshot.nodes()) {
      names.append(names.length() == 0 ? "" : ",").append('"').append(n.name()).append('"');
    }
    ScenarioCluster cluster = new ScenarioCluster(snapshot);
    try (Extender extender =
            new Extender(
                cluster,
                new SchedulerWiring(new CelDeviceSelectors()).cycle(config),
                // reservations outlive the run: it measures answers from them, not re-planning
                new ExtenderSettings(
                    Duration.ofHours(1),
                    ExtenderSettings.DEFAULT_HTTP_TIMEOUT,
                    true,
                    ExtenderSettings.DEFAULT_MAX_REQUEST_BYTES,
                    ExtenderSettings.DEFAULT_REQUEST_TIMEOUT),
                new ExtenderMetrics(),
                Clock.systemUTC());
        ExtenderServer server =
            ExtenderServer.start(
                extender,
                AdmissionWebhook.defaults(cluster),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      String base = "http://127.0.0.1:" + server.port() + "/";
      HttpClient planner = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      long start = System.nanoTime();
      post(planner, base + "filter", body(pods.get(0), names));
      long planMillis = (System.nanoTime() - start) / 1_000_000;

      ExecutorService pool = Executors.newFixedThreadPool(callers);
      List<Future<long[][]>> runs = new ArrayList<>();
      for (int c = 0; c < callers; c++) {
        int caller = c;
        runs.add(
            pool.submit(
                () -> {
                  HttpClient http =
                      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                  long[][] out = new long[3][rounds];
                  for (int r = -warmup; r < rounds; r++) {
                    String pod = pods.get(Math.floorMod(caller * 7919 + r * callers, pods.size()));
                    String args = body(pod, names);
                    String stranger = body("bench/not-gantrys-" + caller, names);
                    long t0 = System.nanoTime();
                    post(http, base + "filter", args);
                    long t1 = System.nanoTime();
                    post(http, base + "prioritize", args);
                    long t2 = System.nanoTime();
                    post(http, base + "filter", stranger);
                    long t3 = System.nanoTime();
                    if (r >= 0) {
                      out[0][r] = (t1 - t0) / 1000;
                      out[1][r] = (t2 - t1) / 1000;
                      out[2][r] = (t3 - t2) / 1000;
                    }
                  }
                  return out;
                }));
      }
      List<long[]> filter = new ArrayList<>();
      List<long[]> prioritize = new ArrayList<>();
      List<long[]> baseline = new ArrayList<>();
      for (Future<long[][]> f : runs) {
        long[][] r = f.get();
        filter.add(r[0]);
        prioritize.add(r[1]);
        baseline.add(r[2]);
      }
      pool.shutdownNow();
      return new Result(
          snapshot.nodes().size(),
          callers,
          planMillis,
          latencies("filter", filter),
          latencies("prioritize", prioritize),
          latencies("baseline filter (pod not Gantry's)", baseline));
    }
  }

  private static Latencies latencies(String name, List<long[]> parts) {
    long[] all = parts.stream().flatMapToLong(Arrays::stream).toArray();
    Arrays.sort(all);
    return new Latencies(name, percentile(all, 50), percentile(all, 99));
  }

  /** The nearest-rank percentile of sorted values. */
  private static long percentile(long[] sorted, double p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static String body(String podKey, CharSequence names) {
    int slash = podKey.indexOf('/');
    return "{\"Pod\":{\"metadata\":{\"namespace\":\""
        + podKey.substring(0, slash)
        + "\",\"name\":\""
        + podKey.substring(slash + 1)
        + "\"}},\"Nodes\":null,\"NodeNames\":["
        + names
        + "]}";
  }

  private static void post(HttpClient http, String url, String body)
      throws IOException, InterruptedException {
    HttpResponse<Void> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.discarding());
    if (r.statusCode() != 200) {
      throw new IOException(url + " answered " + r.statusCode());
    }
  }

  private static ImmutableList<String> pendingPods(ClusterSnapshot s) {
    ImmutableList.Builder<String> out = ImmutableList.builder();
    for (JobInfo j : s.jobs()) {
      for (TaskInfo t : j.tasks()) {
        if (t.status() == TaskStatus.PENDING) {
          out.add(Snapshots.podKey(t));
        }
      }
    }
    return out.build();
  }
}
