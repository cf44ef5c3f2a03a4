package io.gantry.cli;

import io.gantry.extender.ExtenderBench;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.bench.BenchWorkload;
import io.gantry.scheduler.bench.WorkloadGenerator;
import io.gantry.scheduler.model.ClusterSnapshot;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry extender-bench}: latency of the HTTP extender's {@code filter} and {@code
 * prioritize} at kube-scheduler's load, p50 and p99, against a baseline measured in the same run.
 */
@Command(
    name = "extender-bench",
    mixinStandardHelpOptions = true,
    description =
        "Benchmark the HTTP extender: filter and prioritize latency (p50, p99) with every node's"
            + " name in each request (nodeCacheCapable: true), from concurrent callers over"
            + " loopback HTTP, against a baseline filter for a pod Gantry does not manage.")
final class ExtenderBenchCommand implements Callable<Integer> {
  @Option(
      names = "--nodes",
      paramLabel = "N",
      defaultValue = "5000",
      description = "Nodes (8 GPUs each). Default: ${DEFAULT-VALUE}.")
  int nodes;

  @Option(
      names = "--pending-gangs",
      paramLabel = "N",
      defaultValue = "500",
      description = "Pending PodGroups of 4 one-GPU pods. Default: ${DEFAULT-VALUE}.")
  int pendingGangs;

  @Option(
      names = "--running-pods",
      paramLabel = "N",
      defaultValue = "20000",
      description = "Running one-GPU pods. Default: ${DEFAULT-VALUE}.")
  int runningPods;

  @Option(
      names = "--callers",
      paramLabel = "N",
      defaultValue = "8",
      description = "Concurrent callers. Default: ${DEFAULT-VALUE}.")
  int callers;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      defaultValue = "2000",
      description = "Measured filter+prioritize rounds per caller. Default: ${DEFAULT-VALUE}.")
  int rounds;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      defaultValue = "3000",
      description =
          "Rounds per caller before measuring, while the JIT compiles the request path."
              + " Default: ${DEFAULT-VALUE}.")
  int warmup;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (callers < 1 || rounds < 1 || warmup < 0) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--callers and --rounds must be at least 1, --warmup at least 0");
    }
    BenchWorkload workload =
        new BenchWorkload(
            nodes, 8, 0, 2, 7, pendingGangs, 4, 1, 0, 0.5, 0, runningPods, 0, 0, 0, 1);
    ClusterSnapshot snapshot = WorkloadGenerator.generate(workload);
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    double loadBefore = os.getSystemLoadAverage();
    ExtenderBench.Result r =
        ExtenderBench.run(
            snapshot, SchedulerConfig.DEFAULTS, callers, rounds, warmup, Clock.systemUTC());
    double loadAfter = os.getSystemLoadAverage();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "extender at %d nodes, %d callers, %d pending pods: planning cycle %d ms%n",
        r.nodes(), r.callers(), workload.pendingPods(), r.planMillis());
    // the callers share the machine with the server: latency is only comparable at similar load
    out.printf(
        "%d cores; 1-minute load average %.2f before the run, %.2f after%n",
        os.getAvailableProcessors(), loadBefore, loadAfter);
    out.printf("%-40s %10s %10s %10s%n", "request", "p50 ms", "p99 ms", "p99/base");
    long baseP99 = Math.max(1, r.baseline().p99Micros());
    for (ExtenderBench.Latencies l :
        new ExtenderBench.Latencies[] {r.filter(), r.prioritize(), r.baseline()}) {
      out.printf(
          "%-40s %10.2f %10.2f %10.2f%n",
          l.name(),
          l.p50Micros() / 1000.0,
          l.p99Micros() / 1000.0,
          l.p99Micros() / (double) baseP99);
    }
    out.flush();
    return 0;
  }
}
