package io.gantry.scheduler.sim.trace;

import com.google.common.collect.ImmutableList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures a ledger's state against a trace's task mix, as "Beware of Fragmentation" does: the
 * fragmentation rate (the share of free GPU that the trace's GPU tasks, by popularity, could not
 * use: on devices too small for a task's share, or on a node the task cannot land on at all) and
 * the GPUs stranded by CPU or memory (free GPU on nodes where every GPU task that the free devices
 * and models would take lacks CPU or memory).
 */
public final class FragmentationGauge {
  private record Shape(
      int gpus, int gpuMilli, long cpuMillis, long memoryMib, List<String> models) {}

  private final ImmutableList<Shape> shapes;
  private final double[] weights;

  public FragmentationGauge(List<TraceTask> trace) {
    Map<Shape, Integer> counts = new LinkedHashMap<>();
    int total = 0;
    for (TraceTask t : trace) {
      if (t.gpus() > 0) {
        counts.merge(
            new Shape(t.gpus(), t.gpuMilli(), t.cpuMillis(), t.memoryMib(), t.gpuModels()),
            1,
            Integer::sum);
        total++;
      }
    }
    this.shapes = ImmutableList.copyOf(counts.keySet());
    this.weights = new double[shapes.size()];
    int i = 0;
    for (int c : counts.values()) {
      weights[i++] = total == 0 ? 0 : (double) c / total;
    }
  }

  /** Free GPU, fragmented GPU and GPU stranded by CPU or memory, in thousandths. */
  record Reading(long freeMilli, double fragmentedMilli, long cpuBoundMilli) {}

  Reading read(TraceLedger ledger) {
    long free = 0;
    double fragmented = 0;
    long cpuBound = 0;
    for (TraceLedger.NodeUse n : ledger.nodes()) {
      int[] devices = n.freeMilli();
      long nodeFree = 0;
      for (int d : devices) {
        nodeFree += d;
      }
      if (nodeFree == 0) {
        continue;
      }
      free += nodeFree;
      boolean anyGpuFit = false;
      boolean anyFit = false;
      for (int i = 0; i < shapes.size(); i++) {
        Shape s = shapes.get(i);
        boolean modelOk = s.models().isEmpty() || s.models().contains(n.node.model());
        int usable = 0;
        long unusable = 0;
        for (int d : devices) {
          if (d >= s.gpuMilli()) {
            usable++;
          } else {
            unusable += d;
          }
        }
        boolean gpuFits = modelOk && usable >= s.gpus();
        boolean fits =
            gpuFits && n.freeCpuMillis() >= s.cpuMillis() && n.freeMemoryMib() >= s.memoryMib();
        anyGpuFit |= gpuFits;
        anyFit |= fits;
        fragmented += weights[i] * (fits ? unusable : nodeFree);
      }
      if (anyGpuFit && !anyFit) {
        cpuBound += nodeFree;
      }
    }
    return new Reading(free, fragmented, cpuBound);
  }
}
