package io.gantry.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import io.gantry.extender.wire.ExtenderArgs;
import io.gantry.extender.wire.HostPriority;
import io.gantry.extender.wire.NodeNames;
import io.gantry.extender.wire.PodRef;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Measures the extender as kube-scheduler loads it: {@code callers} threads, each on its own
 * keep-alive connection ({@link KeepAliveCaller}), send {@code filter} then {@code prioritize} with
 * every node's name ({@code nodeCacheCapable: true}) for pending pods of a generated cluster, over
 * real HTTP on loopback to the real server. The first request plans every pending PodGroup in one
 * engine cycle (timed on its own); the rest are answered from the reservations. The baseline, in
 * the same run and on the same server, is a {@code filter} for a pod Gantry does not manage: the
 * same request and transport, answered without a plan, so the ratio is what Gantry's rules cost
 * over the protocol itself. Every {@value #SAMPLE_EVERY}th round's answers are kept and, after the
 * timed rounds, parsed and compared with the extender's own answer for the pod.
 */
public final class ExtenderBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SAMPLE_EVERY = 50;

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

  /** The requests for one pod, encoded once. */
  private record PodRequests(
      PodRef pod, KeepAliveCaller.Post filter, KeepAliveCaller.Post prioritize) {
    static PodRequests of(String podKey, byte[] names) {
      int slash = podKey.indexOf('/');
      PodRef pod = new PodRef(podKey.substring(0, slash), podKey.substring(slash + 1), "");
      String start =
          "{\"Pod\":{\"metadata\":{\"namespace\":\""
              + pod.namespace()
              + "\",\"name\":\""
              + pod.name()
              + "\"}},\"Nodes\":null,\"NodeNames\":";
      return new PodRequests(
          pod,
          KeepAliveCaller.Post.json("/filter", start, names, "}"),
          KeepAliveCaller.Post.json("/prioritize", start, names, "}"));
    }
  }

  /** The answers of one sampled round, checked after the timed rounds. */
  private record Sample(
      PodRequests pod, String filter, String prioritize, PodRequests stranger, String baseline) {}

  /** One caller's latencies in microseconds, by round, and its samples. */
  private static final class Measured {
    final long[] filter;
    final long[] prioritize;
    final long[] baseline;
    final List<Sample> samples = new ArrayList<>();

    Measured(int rounds) {
      filter = new long[rounds];
      prioritize = new long[rounds];
      baseline = new long[rounds];
    }
  }

  private ExtenderBench() {}

  /**
   * Serves {@code snapshot} and sends {@code rounds} rounds of filter and prioritize per caller
   * over its pending pods, after {@code warmup} rounds that are not counted; reservations expire by
   * {@code clock}.
   *
   * @throws IllegalStateException when a sampled answer differs from the extender's own
   */
  public static Result run(
      ClusterSnapshot snapshot,
      SchedulerConfig config,
      int callers,
      int rounds,
      int warmup,
      Clock clock)
      throws IOException, InterruptedException, ExecutionException {
    List<String> podKeys = pendingPods(snapshot);
    if (podKeys.isEmpty()) {
      throw new IllegalArgumentException("the cluster has no pending pod to filter");
    }
    List<String> nodeNames = snapshot.nodes().stream().map(NodeInfo::name).toList();
    byte[] names = JSON.writeValueAsBytes(nodeNames);
    List<PodRequests> pods = new ArrayList<>(podKeys.size());
    for (String key : podKeys) {
      pods.add(PodRequests.of(key, names));
    }
    InMemoryCluster cluster = new InMemoryCluster(snapshot);
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
                    ExtenderSettings.DEFAULT_REQUEST_TIMEOUT,
                    0),
                new ExtenderMetrics(),
                clock);
        ExtenderServer server =
            ExtenderServer.start(
                extender,
                AdmissionWebhook.defaults(cluster),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      InetSocketAddress address =
          new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
      long planMillis;
      try (KeepAliveCaller planner = new KeepAliveCaller(address)) {
        long start = System.nanoTime();
        planner.call(pods.get(0).filter());
        planMillis = (System.nanoTime() - start) / 1_000_000;
      }
      ExecutorService pool = Executors.newFixedThreadPool(callers);
      List<Future<Measured>> runs = new ArrayList<>();
      for (int c = 0; c < callers; c++) {
        int caller = c;
        PodRequests stranger = PodRequests.of("bench/not-gantrys-" + c, names);
        runs.add(
            pool.submit(
                () -> {
                  List<PodRequests> mine = new ArrayList<>(rounds + warmup);
                  for (int r = -warmup; r < rounds; r++) {
                    mine.add(pods.get(Math.floorMod(caller * 7919 + r * callers, pods.size())));
                  }
                  return measure(address, mine, stranger, warmup);
                }));
      }
      List<Measured> measured = new ArrayList<>();
      for (Future<Measured> f : runs) {
        measured.add(f.get());
      }
      pool.shutdownNow();
      NodeNames all = NodeNames.of(nodeNames);
      for (Measured m : measured) {
        for (Sample s : m.samples) {
          check(s, extender, all);
        }
      }
      return new Result(
          snapshot.nodes().size(),
          callers,
          planMillis,
          latencies("filter", measured.stream().map(m -> m.filter).toList()),
          latencies("prioritize", measured.stream().map(m -> m.prioritize).toList()),
          latencies(
              "baseline filter (pod not Gantry's)",
              measured.stream().map(m -> m.baseline).toList()));
    }
  }

  /**
   * Sends each round's filter, prioritize and baseline filter on one connection; the first {@code
   * warmup} rounds are not counted.
   */
  private static Measured measure(
      InetSocketAddress server, List<PodRequests> rounds, PodRequests stranger, int warmup)
      throws IOException {
    Measured out = new Measured(rounds.size() - warmup);
    try (KeepAliveCaller http = new KeepAliveCaller(server)) {
      for (int i = 0; i < rounds.size(); i++) {
        PodRequests pod = rounds.get(i);
        int r = i - warmup;
        boolean sampled = r >= 0 && r % SAMPLE_EVERY == 0;
        long t0 = System.nanoTime();
        http.call(pod.filter());
        long t1 = System.nanoTime();
        String filterBody = sampled ? http.body() : null;
        long t2 = System.nanoTime();
        http.call(pod.prioritize());
        long t3 = System.nanoTime();
        String prioritizeBody = sampled ? http.body() : null;
        long t4 = System.nanoTime();
        http.call(stranger.filter());
        long t5 = System.nanoTime();
        if (sampled) {
          out.samples.add(new Sample(pod, filterBody, prioritizeBody, stranger, http.body()));
        }
        if (r >= 0) {
          out.filter[r] = (t1 - t0) / 1000;
          out.prioritize[r] = (t3 - t2) / 1000;
          out.baseline[r] = (t5 - t4) / 1000;
        }
      }
    }
    return out;
  }

  /**
   * Checks that a sampled round's answers parse and say what the extender says in-process: the
   * pod's reserved node (one node: the bench's cluster fits every pending gang), that node scored
   * 10, and every node for the stranger.
   */
  private static void check(Sample s, Extender extender, NodeNames all) throws IOException {
    ExtenderArgs args = new ExtenderArgs(s.pod().pod(), all, Optional.empty());
    List<String> planned =
        extender.filterIfKnown(args).map(r -> List.copyOf(r.passing())).orElse(List.of());
    if (planned.size() != 1) {
      throw new IllegalStateException(
          "pod " + s.pod().pod().key() + " has no reserved node: " + planned);
    }
    expect(s.pod(), "filter", nodeNames(s.filter()), planned);
    List<HostPriority> scores = new ArrayList<>();
    for (JsonNode p : JSON.readTree(s.prioritize())) {
      scores.add(new HostPriority(p.path("Host").asText(), p.path("Score").asLong()));
    }
    expect(
        s.pod(), "prioritize", scores, List.of(new HostPriority(planned.get(0), HostPriority.MAX)));
    expect(s.stranger(), "filter", nodeNames(s.baseline()), List.copyOf(all));
  }

  private static List<String> nodeNames(String filterAnswer) throws IOException {
    List<String> out = new ArrayList<>();
    for (JsonNode n : JSON.readTree(filterAnswer).path("NodeNames")) {
      out.add(n.asText());
    }
    return out;
  }

  private static <T> void expect(PodRequests pod, String verb, List<T> got, List<T> expected) {
    if (!got.equals(expected)) {
      throw new IllegalStateException(
          verb
              + " for pod "
              + pod.pod().key()
              + " answered "
              + abbreviate(got)
              + ", expected "
              + abbreviate(expected));
    }
  }

  private static String abbreviate(List<?> list) {
    return list.size() <= 3 ? list.toString() : list.subList(0, 3) + "… (" + list.size() + ")";
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
