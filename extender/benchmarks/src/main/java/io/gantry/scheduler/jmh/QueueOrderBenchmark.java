package io.gantry.scheduler.jmh;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.bench.BenchWorkload;
import io.gantry.scheduler.bench.WorkloadGenerator;
import io.gantry.scheduler.fairness.FairShareDivider;
import io.gantry.scheduler.fairness.QueueOrderRule;
import io.gantry.scheduler.fairness.QueueTree;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Queue order: one comparison of two sibling queues, what every heap step of the job order costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QueueOrderBenchmark {
  private QueueTree tree;
  private QueueOrderRule rule;
  private final Resources request = Resources.of(4_000, 16L << 30, GpuAmount.ofDevices(1));

  @Setup
  public void setUp() {
    BenchWorkload spec = new BenchWorkload(200, 8, 0, 2, 7, 2_000, 1, 1, 0, 0.5, 0, 0, 0, 0, 0, 13);
    ClusterSnapshot snapshot = WorkloadGenerator.generate(spec);
    ResourceVector total =
        ResourceVector.of(Resources.of(200 * 128_000L, 200L << 40, GpuAmount.ofDevices(1_600)));
    tree = new QueueTree(snapshot.queues(), total);
    tree.addAllocated("q-0-0", request, false);
    tree.addRequest("q-0-0", request);
    tree.addRequest("q-0-1", request);
    tree.computeFairShares(new FairShareDivider(1));
    rule = new QueueOrderRule(total);
  }

  @Benchmark
  public int compareSiblingQueues() {
    return rule.compare(tree.get("q-0-0"), request, tree.get("q-0-1"), request);
  }
}
