package io.gantry.scheduler.sim.trace;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads a replay as the paper plots it: x, the GPU demand arrived so far (placed or dropped) as a
 * percentage of capacity; at each whole x, the unallocated share of capacity once every arrival
 * whose demand keeps the arrived total within x has come. Demand and capacity are in the trace's
 * thousandths of a GPU.
 */
public final class InflateCurve {
  /** The fragmentation measures are read every this many points of x (they cost more). */
  public static final int GAUGE_STEP_PERCENT = 5;

  private InflateCurve() {}

  public static ImmutableList<InflatePoint> of(
      List<TraceNode> nodes,
      List<TraceTask> arrivals,
      List<Optional<TraceLedger.Placed>> placements,
      FragmentationGauge gauge,
      int maxPercent) {
    TraceLedger ledger = new TraceLedger(nodes);
    long capacity = ledger.capacityMilli();
    ImmutableList.Builder<InflatePoint> out = ImmutableList.builder();
    long arrived = 0;
    int next = 0;
    for (int x = 0; x <= maxPercent; x++) {
      // arrived * 100 <= x * capacity, in integers
      while (next < arrivals.size()
          && (arrived + arrivals.get(next).gpuDemandMilli()) * 100 <= (long) x * capacity) {
        TraceTask t = arrivals.get(next);
        arrived += t.gpuDemandMilli();
        Optional<TraceLedger.Placed> p = placements.get(next);
        if (p.isPresent()) {
          ledger.place(t, p.get());
        }
        next++;
      }
      double unallocated = 100.0 * (capacity - ledger.allocatedMilli()) / capacity;
      OptionalDouble fragmentation = OptionalDouble.empty();
      OptionalDouble cpuBound = OptionalDouble.empty();
      if (x % GAUGE_STEP_PERCENT == 0) {
        FragmentationGauge.Reading r = gauge.read(ledger);
        fragmentation =
            OptionalDouble.of(r.freeMilli() == 0 ? 0 : 100.0 * r.fragmentedMilli() / r.freeMilli());
        cpuBound = OptionalDouble.of(100.0 * r.cpuBoundMilli() / capacity);
      }
      out.add(new InflatePoint(x, unallocated, fragmentation, cpuBound));
    }
    return out.build();
  }
}
