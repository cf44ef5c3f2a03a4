// Over 450 lines on purpose: most of it is picocli's option declarations with the help text users
// read with --help; the runs themselves are BenchRunner's (engine presets) and E2eBench's.
package io.gantry.cli;

import io.gantry.cli.e2e.E2eBench;
import io.gantry.cli.e2e.E2ePreset;
import io.gantry.cli.e2e.E2eReport;
import io.gantry.cli.e2e.E2eResult;
import io.gantry.cli.e2e.E2eWorkload;
import io.gantry.cli.e2e.MemoryResult;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.bench.BenchPreset;
import io.gantry.scheduler.bench.BenchReport;
import io.gantry.scheduler.bench.BenchRunner;
import io.gantry.scheduler.bench.BenchWorkload;
import io.gantry.scheduler.bench.PresetResult;
import io.gantry.scheduler.cycle.SchedulerWiring;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry bench}: generates a synthetic cluster and workload, runs the real engine on it
 * in-process and reports pods placed per second, cycle times, snapshot build time and peak heap,
 * each against the baseline strategy on the same snapshot. Progress goes to standard error.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Benchmark the engine on a synthetic cluster and workload, against the baseline strategy"
          + " (score and sort every node for every task).",
      "Presets: alloc-5k, mixed-5k, gang-5k, idle-cycle-150k, unschedulable-20k,"
          + " reclaim-unschedulable-1k, topology-rack-1k, scaling (or all). Without --preset the workload comes from"
          + " the flags; with one, a flag given overrides the preset's value.",
      "End-to-end presets: e2e-1k, e2e-5k (not in all): the live scheduler against an in-process"
          + " fake API server until every pod is bound, then the same bindings alone; --nodes"
          + " resizes them (ten pods a node). e2e-memory-150k: the scheduler's heap after a full GC"
          + " at 5,000 nodes and 150,000 running pods."
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:every workload ran",
      "1:the baseline decided differently from the indexed engine",
      "2:a flag is invalid, or a workload needs what this build does not have",
      "3:an end-to-end preset left pods unbound"
    })
final class BenchCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int DIFFERENT_DECISIONS = 1;
  static final int INVALID = 2;
  static final int UNBOUND = 3;

  enum Output {
    text,
    json
  }

  @Option(
      names = "--preset",
      paramLabel = "NAME",
      description = "A preset workload (repeatable), or all.")
  List<String> presets = new ArrayList<>();

  @Option(names = "--nodes", paramLabel = "N", description = "Nodes. Default: 5000.")
  Integer nodes;

  @Option(
      names = "--gpus-per-node",
      paramLabel = "N",
      description = "GPUs per GPU node. Default: 8.")
  Integer gpusPerNode;

  @Option(
      names = "--cpu-only-nodes",
      paramLabel = "SHARE",
      description = "Share of the nodes without GPUs (64 cores, 256 GiB). Default: 0.")
  Double cpuOnlyNodes;

  @Option(names = "--queue-depth", paramLabel = "N", description = "Levels of queues. Default: 2.")
  Integer queueDepth;

  @Option(
      names = "--queue-width",
      paramLabel = "N",
      description = "Children per queue and queues at the top. Default: 7.")
  Integer queueWidth;

  @Option(names = "--pending-jobs", paramLabel = "N", description = "Pending jobs. Default: 10000.")
  Integer pendingJobs;

  @Option(
      names = "--gang-size",
      paramLabel = "N",
      description = "Pods per pending job, all needed together. Default: 1.")
  Integer gangSize;

  @Option(
      names = "--gpus-per-pod",
      paramLabel = "N",
      description = "Whole GPUs per pending whole-GPU pod. Default: 1.")
  Integer gpusPerPod;

  @Option(
      names = "--fractional-share",
      paramLabel = "SHARE",
      description = "Share of pending jobs whose pods ask for a GPU fraction. Default: 0.")
  Double fractionalShare;

  @Option(
      names = "--gpu-fraction",
      paramLabel = "F",
      description = "The fraction those pods ask for. Default: 0.5.")
  Double gpuFraction;

  @Option(
      names = "--cpu-only-share",
      paramLabel = "SHARE",
      description = "Share of pending jobs whose pods ask for no GPU. Default: 0.")
  Double cpuOnlyShare;

  @Option(
      names = "--running-pods",
      paramLabel = "N",
      description = "Running one-pod jobs: 1-GPU pods while GPUs last, then CPU-only. Default: 0.")
  Integer runningPods;

  @Option(
      names = "--topology-levels",
      paramLabel = "N",
      description =
          "Network topology levels; pending jobs must stay inside one rack (the level above the"
              + " host). Default: 0.")
  Integer topologyLevels;

  @Option(
      names = "--reclaim-shortfall",
      paramLabel = "GPUS",
      description =
          "Two queues instead of the tree: running pods in one over its quota by this many GPUs"
              + " fewer than the pending pods need, pending jobs in the other. Default: 0 (off).")
  Integer reclaimShortfall;

  @Option(
      names = "--gpu-domains",
      paramLabel = "N",
      description =
          "NVLink domains each GPU node publishes, of equal size (GPUs 0-3 and 4-7 for 2 of 8"
              + " GPUs). Default: 0 (none).")
  Integer gpuDomains;

  @Option(names = "--seed", paramLabel = "N", description = "Random seed. Default: 13.")
  Long seed;

  @Option(
      names = "--actions",
      paramLabel = "NAME",
      split = ",",
      description = "Actions of a custom workload's cycle. Default: allocate.")
  List<String> actions = new ArrayList<>(List.of("allocate"));

  @Option(
      names = "--placement",
      paramLabel = "LIST",
      split = ",",
      description =
          "GPU placement strategies (placement.gpu) to run each workload with, one row each"
              + " (PRESET/STRATEGY when more than one); standard error then gives each one's"
              + " throughput as a multiple of the first's. Default: binpack.")
  List<String> placements = new ArrayList<>(List.of("binpack"));

  @Option(
      names = "--warmup",
      paramLabel = "N",
      defaultValue = "2",
      description = "Unmeasured cycles first. Default: ${DEFAULT-VALUE}.")
  int warmup;

  @Option(
      names = "--cycles",
      paramLabel = "N",
      defaultValue = "5",
      description = "Measured cycles; medians and p99 are over these. Default: ${DEFAULT-VALUE}.")
  int cycles;

  @Option(
      names = "--no-baseline",
      description = "Skip the baseline strategy (no ratio, no decision check).")
  boolean noBaseline;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "text (a table) or json (one object per preset per line). Default: ${DEFAULT-VALUE}.")
  Output output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<String> names = expand(presets);
    BenchRunner.Options options;
    try {
      options = new BenchRunner.Options(warmup, cycles, !noBaseline);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--" + e.getMessage());
    }
    SchedulerWiring wiring = new SchedulerWiring(new CelDeviceSelectors());
    BenchRunner runner =
        new BenchRunner(
            wiring,
            line -> {
              err.println(line);
              err.flush();
            });
    List<PresetResult> results = new ArrayList<>();
    int status = OK;
    List<String> runs = names.isEmpty() ? List.of("custom") : names;
    List<PlacementStrategy> strategies = new ArrayList<>();
    for (String p : placements) {
      try {
        strategies.add(PlacementStrategy.parse(p.trim()));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--placement: " + e.getMessage());
      }
    }
    for (String preset : runs) {
      Optional<E2ePreset> e2e = E2ePreset.byName(preset);
      if (e2e.isPresent()) {
        status = Math.max(status, runEndToEnd(e2e.get(), out, err));
        continue;
      }
      PresetResult reference = null;
      for (PlacementStrategy strategy : strategies) {
        String name = strategies.size() > 1 ? preset + "/" + strategy.k8sName() : preset;
        PresetResult result;
        try {
          result = run(preset, name, strategy, wiring, runner, options);
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--" + e.getMessage());
        } catch (NotBuiltException e) {
          err.println("error: " + name + ": " + e.getMessage());
          err.flush();
          status = INVALID;
          continue;
        }
        if (reference == null) {
          reference = result;
        } else {
          err.println(
              String.format(
                  Locale.ROOT,
                  "%s: %s places %.0f pods/s, %.2f× %s's %.0f pods/s",
                  preset,
                  strategy.k8sName(),
                  result.podsPerSecond(),
                  result.podsPerSecond() / reference.podsPerSecond(),
                  strategies.get(0).k8sName(),
                  reference.podsPerSecond()));
          err.flush();
        }
        results.add(result);
        if (result.identicalDecisions().orElse(true).equals(false)) {
          err.println("error: " + name + ": the baseline decided differently");
          status = Math.max(status, DIFFERENT_DECISIONS);
        }
        if (output == Output.json) {
          out.println(BenchReport.toJson(result));
          out.flush();
        }
      }
    }
    if (output == Output.text && !results.isEmpty()) {
      out.print(BenchReport.toText(results));
      out.flush();
    }
    return status;
  }

  /**
   * Runs an end-to-end preset ({@link E2eBench}) and prints its result at once; {@code --nodes}
   * resizes it (ten pods a node).
   */
  private int runEndToEnd(E2ePreset preset, PrintWriter out, PrintWriter err) {
    if (preset.memory()) {
      return runMemory(preset, out, err);
    }
    E2eWorkload workload;
    try {
      workload = preset.workload(Optional.ofNullable(nodes));
    } catch (IllegalArgumentException e) {
      err.println("error: --" + e.getMessage());
      err.flush();
      return INVALID;
    }
    Optional<E2eResult> result =
        runBench(preset, err, bench -> bench.run(preset.presetName(), workload));
    if (result.isEmpty()) {
      return INVALID;
    }
    print(
        out,
        output == Output.json
            ? E2eReport.toJson(result.get()) + System.lineSeparator()
            : E2eReport.toText(result.get()));
    if (!result.get().allBound()) {
      err.println("error: " + preset.presetName() + ": not every pod was bound");
      err.flush();
      return UNBOUND;
    }
    return OK;
  }

  /** Runs the memory preset: the scheduler's heap after a full GC over running pods. */
  private int runMemory(E2ePreset preset, PrintWriter out, PrintWriter err) {
    int n = preset.nodes(Optional.ofNullable(nodes));
    if (n < 1) {
      err.println("error: --nodes must be at least 1");
      err.flush();
      return INVALID;
    }
    Optional<MemoryResult> result =
        runBench(
            preset,
            err,
            bench -> bench.runMemory(preset.presetName(), n, E2ePreset.RUNNING_PODS_PER_NODE));
    if (result.isEmpty()) {
      return INVALID;
    }
    print(
        out,
        output == Output.json
            ? E2eReport.toJson(result.get()) + System.lineSeparator()
            : E2eReport.toText(result.get()));
    return OK;
  }

  /** One run of an {@link E2eBench}. */
  @FunctionalInterface
  private interface E2eRun<T> {
    T run(E2eBench bench) throws IOException, InterruptedException;
  }

  /**
   * {@code run} on a bench that prints its progress on {@code err}; empty (the failure printed in
   * one line) when it could not run.
   */
  private static <T> Optional<T> runBench(E2ePreset preset, PrintWriter err, E2eRun<T> run) {
    try {
      return Optional.of(
          run.run(
              new E2eBench(
                  line -> {
                    err.println(line);
                    err.flush();
                  })));
    } catch (IOException e) {
      err.println("error: " + preset.presetName() + ": " + e.getMessage());
      err.flush();
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static void print(PrintWriter out, String text) {
    out.print(text);
    out.flush();
  }

  /** A preset needs an action this build does not have. */
  private static final class NotBuiltException extends Exception {
    private static final long serialVersionUID = 1L;

    NotBuiltException(String message) {
      super(message);
    }
  }

  private PresetResult run(
      String preset,
      String name,
      PlacementStrategy strategy,
      SchedulerWiring wiring,
      BenchRunner runner,
      BenchRunner.Options options)
      throws NotBuiltException {
    Placement placement = new Placement(strategy, Placement.DEFAULTS.cpu());
    if (preset.equals("custom")) {
      BenchWorkload workload =
          override(new BenchWorkload(5_000, 8, 0, 2, 7, 10_000, 1, 1, 0, 0.5, 0, 0, 0, 0, 0, 13));
      return runner.run(name, workload, config(wiring, actions, placement), options);
    }
    BenchPreset chosen =
        BenchPreset.byName(preset)
            .orElseThrow(
                () ->
                    new CommandLine.ParameterException(
                        spec.commandLine(),
                        "unknown preset \""
                            + preset
                            + "\"; presets: "
                            + Stream.concat(
                                    Arrays.stream(BenchPreset.values())
                                        .map(BenchPreset::presetName),
                                    Arrays.stream(E2ePreset.values()).map(E2ePreset::presetName))
                                .collect(Collectors.joining(", "))));
    SchedulerConfig config = config(wiring, chosen.actions(), placement);
    if (chosen == BenchPreset.SCALING) {
      return runner.runScaling(config, options);
    }
    if (chosen == BenchPreset.TOPOLOGY_RACK_1K) {
      return runner.runTopology(override(chosen.spec()), config, options);
    }
    return runner.run(name, override(chosen.spec()), config, options);
  }

  /** The configuration for {@code actions}; an action this build lacks stops the preset. */
  private static SchedulerConfig config(
      SchedulerWiring wiring, List<String> actions, Placement placement) throws NotBuiltException {
    for (String action : actions) {
      try {
        wiring.cycle(SchedulerConfig.of(List.of(action), Map.of(), placement));
      } catch (ConfigException e) {
        throw new NotBuiltException(
            "needs the " + action + " action, which this build cannot run: " + e.problem());
      }
    }
    return SchedulerConfig.of(actions, Map.of(), placement);
  }

  private static List<String> expand(List<String> names) {
    if (names.contains("all")) {
      return Arrays.stream(BenchPreset.values()).map(BenchPreset::presetName).toList();
    }
    return names;
  }

  private BenchWorkload override(BenchWorkload base) {
    return new BenchWorkload(
        nodes != null ? nodes : base.nodes(),
        gpusPerNode != null ? gpusPerNode : base.gpusPerNode(),
        cpuOnlyNodes != null ? cpuOnlyNodes : base.cpuOnlyNodeShare(),
        queueDepth != null ? queueDepth : base.queueDepth(),
        queueWidth != null ? queueWidth : base.queueWidth(),
        pendingJobs != null ? pendingJobs : base.pendingJobs(),
        gangSize != null ? gangSize : base.gangSize(),
        gpusPerPod != null ? gpusPerPod : base.gpusPerPod(),
        fractionalShare != null ? fractionalShare : base.fractionalShare(),
        gpuFraction != null ? gpuFraction : base.gpuFraction(),
        cpuOnlyShare != null ? cpuOnlyShare : base.cpuOnlyShare(),
        runningPods != null ? runningPods : base.runningPods(),
        topologyLevels != null ? topologyLevels : base.topologyLevels(),
        reclaimShortfall != null ? reclaimShortfall : base.reclaimShortfallGpus(),
        gpuDomains != null ? gpuDomains : base.gpuDomainsPerNode(),
        seed != null ? seed : base.seed());
  }
}
