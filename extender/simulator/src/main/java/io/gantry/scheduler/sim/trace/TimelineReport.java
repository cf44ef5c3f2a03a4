package io.gantry.scheduler.sim.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The timeline replay as a text table, as one JSON object, and as chart series. */
public final class TimelineReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TimelineReport() {}

  public static String text(List<TimelineResult> results, Duration period) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "timeline: a cycle every %ds; queueing delay in seconds%n%n%-22s %14s %10s %10s %10s"
                + " %14s %8s %9s%n",
            period.toSeconds(),
            "policy",
            "mean alloc (%)",
            "delay p50",
            "delay p90",
            "delay p99",
            "never placed %",
            "cycles",
            "s/run"));
    for (TimelineResult r : results) {
      b.append(
          String.format(
              Locale.ROOT,
              "%-22s %14.2f %10d %10d %10d %14.2f %8d %9.1f%n",
              label(r),
              r.meanAllocatedPercent(),
              r.delayPercentile(50),
              r.delayPercentile(90),
              r.delayPercentile(99),
              r.neverPlacedPercent(),
              r.cycles(),
              r.seconds()));
    }
    return b.toString();
  }

  public static String json(List<TimelineResult> results, Duration period) {
    ObjectNode root = JSON.createObjectNode();
    root.put("mode", "timeline");
    root.put("periodSeconds", period.toSeconds());
    ArrayNode policies = root.putArray("policies");
    for (TimelineResult r : results) {
      ObjectNode p = policies.addObject();
      p.put("policy", r.policy().k8sName());
      p.put("tasks", r.tasks());
      p.put("neverPlaced", r.neverPlaced());
      p.put("cycles", r.cycles());
      p.put("meanAllocatedPercent", round(r.meanAllocatedPercent()));
      ObjectNode delay = p.putObject("delaySeconds");
      delay.put("p50", r.delayPercentile(50));
      delay.put("p90", r.delayPercentile(90));
      delay.put("p99", r.delayPercentile(99));
      ArrayNode samples = p.putArray("allocation");
      for (TimelineResult.Sample s : r.allocation()) {
        ObjectNode o = samples.addObject();
        o.put("atSeconds", s.atSeconds());
        o.put("allocatedPercent", round(s.allocatedPercent()));
      }
    }
    return root.toString();
  }

  public static ImmutableList<LineChart.Series> series(List<TimelineResult> results) {
    ImmutableList.Builder<LineChart.Series> out = ImmutableList.builder();
    for (TimelineResult r : results) {
      double[] x = new double[r.allocation().size()];
      double[] y = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        x[i] = r.allocation().get(i).atSeconds() / 3600.0;
        y[i] = r.allocation().get(i).allocatedPercent();
      }
      out.add(new LineChart.Series(label(r), x, y));
    }
    return out.build();
  }

  private static String label(TimelineResult r) {
    String name = r.policy().k8sName();
    return r.policy() == io.gantry.scheduler.api.config.PlacementStrategy.BINPACK
        ? name + " (KAI default)"
        : name;
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
