package io.gantry.scheduler.jmh;

import io.gantry.scheduler.api.SchedulerWiring;
import io.gantry.scheduler.api.SchedulingCycle;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.bench.WorkloadGenerator;
import io.gantry.scheduler.bench.WorkloadSpec;
import io.gantry.scheduler.fairness.FairShareDivider;
import io.gantry.scheduler.fairness.QueueOrderRule;
import io.gantry.scheduler.fairness.QueueTree;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Queue order: one comparison of two sibling queues (what every heap step of the job order costs),
 * and a whole allocate cycle of a small cluster, where the job order runs once per job, under both
 * search strategies.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QueueOrderBenchmark {
  @Param({"INDEXED", "BASELINE"})
  public SearchStrategy strategy;

  private QueueTree tree;
  private QueueOrderRule rule;
  private final Resources request = Resources.of(4_000, 16L << 30, GpuAmount.ofDevices(1));
  private SchedulingCycle cycle;
  private ClusterSnapshot snapshot;

  @Setup
  public void setUp() {
    WorkloadSpec spec = new WorkloadSpec(200, 8, 0, 2, 7, 2_000, 1, 1, 0, 0.5, 0, 0, 0, 13);
    snapshot = WorkloadGenerator.generate(spec);
    ResourceVector total =
        ResourceVector.of(Resources.of(200 * 128_000L, 200L << 40, GpuAmount.ofDevices(1_600)));
    tree = new QueueTree(snapshot.queues(), total);
    tree.addAllocated("q-0-0", request, false);
    tree.addRequest("q-0-0", request);
    tree.addRequest("q-0-1", request);
    tree.computeFairShares(new FairShareDivider(1));
    rule = new QueueOrderRule(total);
    cycle = new SchedulerWiring().cycle(SchedulerConfig.DEFAULTS, strategy);
  }

  @Benchmark
  public int compareSiblingQueues() {
    return rule.compare(tree.get("q-0-0"), request, tree.get("q-0-1"), request);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public CycleResult allocateCycle2kPods() {
    return cycle.run(snapshot);
  }
}
