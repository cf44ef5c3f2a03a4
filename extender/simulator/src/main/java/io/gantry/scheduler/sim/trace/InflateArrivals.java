package io.gantry.scheduler.sim.trace;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The arrival order of the paper's inflation protocol for one seed: the trace's tasks shuffled,
 * then tasks drawn from the trace with replacement and appended while the arrived GPU demand stays
 * within {@code ratio} × the cluster's GPU capacity (the first draw that would pass it ends the
 * list). The same seed gives the same order.
 */
public final class InflateArrivals {
  private InflateArrivals() {}

  public static ImmutableList<TraceTask> of(
      List<TraceTask> tasks, long capacityMilli, double ratio, long seed) {
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("no tasks to replay");
    }
    if (!(ratio > 0)) {
      throw new IllegalArgumentException("ratio must be positive, got " + ratio);
    }
    Random random = new Random(seed);
    List<TraceTask> out = new ArrayList<>(tasks);
    Collections.shuffle(out, random);
    long limit = (long) Math.floor(ratio * capacityMilli);
    long demand = 0;
    for (TraceTask t : out) {
      demand += t.gpuDemandMilli();
    }
    boolean anyGpu = tasks.stream().anyMatch(t -> t.gpuDemandMilli() > 0);
    while (anyGpu) {
      TraceTask next = tasks.get(random.nextInt(tasks.size()));
      if (demand + next.gpuDemandMilli() > limit) {
        break;
      }
      demand += next.gpuDemandMilli();
      out.add(next);
    }
    return ImmutableList.copyOf(out);
  }
}
