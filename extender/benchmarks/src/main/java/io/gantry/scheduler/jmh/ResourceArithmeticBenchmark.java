package io.gantry.scheduler.jmh;

import io.gantry.gpusharing.GpuAmount;
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
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The resource arithmetic every fit check, charge and queue update does. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResourceArithmeticBenchmark {
  private final Resources node = Resources.of(128_000, 1L << 40, GpuAmount.ofDevices(8));
  private final Resources pod = Resources.of(4_000, 16L << 30, GpuAmount.ofDevices(1));
  private final ResourceVector vector = ResourceVector.of(node);

  @Benchmark
  public Resources plus() {
    return node.plus(pod);
  }

  @Benchmark
  public Resources minus() {
    return node.minus(pod);
  }

  @Benchmark
  public boolean fitsIn() {
    return pod.fitsIn(node);
  }

  @Benchmark
  public GpuAmount gpuPlus() {
    return node.gpus().plus(pod.gpus());
  }

  @Benchmark
  public ResourceVector vectorPlus() {
    return vector.plus(ResourceVector.of(pod));
  }
}
