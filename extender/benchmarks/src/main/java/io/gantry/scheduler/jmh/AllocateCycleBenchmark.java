package io.gantry.scheduler.jmh;

import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.bench.BenchWorkload;
import io.gantry.scheduler.bench.WorkloadGenerator;
import io.gantry.scheduler.model.ClusterSnapshot;
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
 * A whole allocate cycle of a small cluster (200 nodes × 8 GPUs, 2,000 pending 1-GPU pods), where
 * the job order runs once per job and each pod finds its node, under both search strategies.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AllocateCycleBenchmark {
  @Param({"INDEXED", "BASELINE"})
  public SearchStrategy strategy;

  private SchedulingCycle cycle;
  private ClusterSnapshot snapshot;

  @Setup
  public void setUp() {
    snapshot =
        WorkloadGenerator.generate(
            new BenchWorkload(200, 8, 0, 2, 7, 2_000, 1, 1, 0, 0.5, 0, 0, 0, 0, 0, 13));
    cycle = new SchedulerWiring().cycle(SchedulerConfig.DEFAULTS, strategy);
  }

  @Benchmark
  public CycleResult allocateCycle() {
    return cycle.run(snapshot);
  }
}
