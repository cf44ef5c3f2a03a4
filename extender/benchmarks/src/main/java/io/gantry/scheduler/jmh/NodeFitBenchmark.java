package io.gantry.scheduler.jmh;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.bench.BenchWorkload;
import io.gantry.scheduler.bench.WorkloadGenerator;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.PluginRegistry;
import java.util.Map;
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
 * One node checked for one task, the unit the baseline pays per node and the index pays per node it
 * walks: the predicates, resource fit, shared-GPU selection, score, and the index's first node. The
 * session holds 500 half-full 8-GPU nodes and pending whole-GPU, fractional and CPU-only pods.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NodeFitBenchmark {
  private Session session;
  private PluginHooks hooks;
  private NodeState node;
  private TaskState whole;
  private TaskState shared;
  private TaskState cpuOnly;

  @Setup
  public void setUp() {
    BenchWorkload spec =
        new BenchWorkload(500, 8, 0, 2, 7, 3_000, 1, 1, 0.45, 0.5, 0.1, 2_000, 0, 0, 0, 13);
    hooks = new PluginRegistry().build(Map.of(), Placement.DEFAULTS);
    session = Session.open(WorkloadGenerator.generate(spec), hooks);
    node = session.nodes().get(250);
    for (JobState job : session.jobs()) {
      TaskState t = job.tasks().get(0);
      if (t.status() != TaskStatus.PENDING) {
        continue;
      }
      if (t.info().isShared() && shared == null) {
        shared = t;
      } else if (!t.info().requestsGpu() && cpuOnly == null) {
        cpuOnly = t;
      } else if (t.info().request().gpus().isPositive() && whole == null) {
        whole = t;
      }
    }
  }

  @Benchmark
  public FitStatus predicates() {
    return hooks.filter(whole, node);
  }

  @Benchmark
  public boolean wholeGpuFits() {
    return GpuFit.fits(whole, node, hooks);
  }

  @Benchmark
  public boolean sharedGpuFits() {
    return GpuFit.fits(shared, node, hooks);
  }

  @Benchmark
  public boolean cpuOnlyFitsIdleNow() {
    return GpuFit.fitsIdleNow(cpuOnly, node);
  }

  @Benchmark
  public double score() {
    return hooks.scoreNode(whole, node);
  }

  @Benchmark
  public NodeState fullestNodeWithAFreeGpu() {
    return session.nodeIndex().withFreeGpusAtLeast(1).iterator().next();
  }

  @Benchmark
  public NodeState fullestSharedGpuWithHalfFree() {
    var nodes = session.nodeIndex().withSharedRoomAtLeast(50).iterator();
    return nodes.hasNext() ? nodes.next() : null;
  }
}
