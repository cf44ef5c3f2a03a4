package io.gantry.scheduler.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/** {@code gantry bench} results as a table for people and as one JSON object per preset. */
public final class BenchReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BenchReport() {}

  /** One JSON object, on one line, with every figure of {@code result}. */
  public static String toJson(PresetResult result) {
    return json(result).toString();
  }

  private static ObjectNode json(PresetResult r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("preset", r.preset());
    o.put("nodes", r.spec().nodes());
    o.put("gpusPerNode", r.spec().gpusPerNode());
    o.put("pendingPods", r.spec().pendingPods());
    o.put("runningPods", r.spec().runningPods());
    o.put("podsPlaced", r.podsPlaced());
    o.put("podsPerSecond", round(r.podsPerSecond()));
    optional(o, "baselinePodsPerSecond", r.baselinePodsPerSecond());
    optional(o, "ratio", r.ratio());
    o.put("cycleP50Millis", round(r.cycleP50Millis()));
    o.put("cycleP99Millis", round(r.cycleP99Millis()));
    optional(o, "baselineCycleMillis", r.baselineCycleMillis());
    o.put("snapshotBuildMillis", round(r.snapshotBuildMillis()));
    o.put("sessionOpenP50Millis", round(r.sessionOpenP50Millis()));
    ObjectNode actions = o.putObject("actionP50Millis");
    for (Map.Entry<String, Double> e : r.actionP50Millis().entrySet()) {
      actions.put(e.getKey(), round(e.getValue()));
    }
    o.put("allocatePodsPerSecond", round(r.allocatePodsPerSecond()));
    o.put("allocateCpuP50Millis", round(r.allocateCpuP50Millis()));
    o.put("allocateCpuPodsPerSecond", round(r.allocateCpuPodsPerSecond()));
    optional(o, "allocateBytesPerPod", r.allocateBytesPerPod());
    o.put("firstCycleAllocateMillis", round(r.firstCycleAllocateMillis()));
    o.put("firstCycleAllocatePodsPerSecond", round(r.firstCycleAllocatePodsPerSecond()));
    o.put("resultP50Millis", round(r.resultP50Millis()));
    o.put("pendingPodsWithFitMessage", r.pendingPodsWithFitMessage());
    o.put("pendingPodsWithoutFitMessage", r.pendingPodsWithoutFitMessage());
    o.put("peakHeapBytes", r.peakHeapBytes());
    o.put("maxHeapBytes", r.maxHeapBytes());
    o.put("initialHeapBytes", r.initialHeapBytes());
    if (r.identicalDecisions().isPresent()) {
      o.put("identicalDecisions", r.identicalDecisions().get());
    } else {
      o.putNull("identicalDecisions");
    }
    if (!r.points().isEmpty()) {
      ArrayNode points = o.putArray("points");
      for (PresetResult p : r.points()) {
        points.add(json(p));
      }
    }
    return o;
  }

  /** A table: one row per preset (and per size of {@code scaling}). */
  public static String toText(List<PresetResult> results) {
    StringBuilder out = new StringBuilder();
    String header =
        String.format(
            Locale.ROOT,
            "%-26s %6s %7s %9s %10s %8s %9s %9s %10s %9s %11s %9s %9s %s%n",
            "preset",
            "nodes",
            "placed",
            "pods/s",
            "base pods/s",
            "ratio",
            "p50 ms",
            "p99 ms",
            "base ms",
            "alloc ms",
            "alloc B/pod",
            "open ms",
            "heap MiB",
            "identical");
    out.append(header);
    for (PresetResult r : results) {
      row(out, r.preset(), r);
      for (PresetResult p : r.points()) {
        row(out, "  " + p.preset(), p);
      }
    }
    return out.toString();
  }

  private static void row(StringBuilder out, String name, PresetResult r) {
    out.append(
        String.format(
            Locale.ROOT,
            "%-26s %6d %7d %9.0f %10s %8s %9.1f %9.1f %10s %9.1f %11s %9.1f %9d %s%n",
            name,
            r.spec().nodes(),
            r.podsPlaced(),
            r.podsPerSecond(),
            text(r.baselinePodsPerSecond(), "%.0f"),
            text(r.ratio(), "%.1f×"),
            r.cycleP50Millis(),
            r.cycleP99Millis(),
            text(r.baselineCycleMillis(), "%.1f"),
            r.actionP50Millis().getOrDefault("allocate", 0.0),
            text(r.allocateBytesPerPod(), "%.0f"),
            r.sessionOpenP50Millis(),
            r.peakHeapBytes() >> 20,
            r.identicalDecisions().map(String::valueOf).orElse("-")));
  }

  private static String text(OptionalDouble value, String format) {
    return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "-";
  }

  private static void optional(ObjectNode o, String field, OptionalDouble value) {
    if (value.isPresent()) {
      o.put(field, round(value.getAsDouble()));
    } else {
      o.putNull(field);
    }
  }

  private static double round(double value) {
    return Math.round(value * 100.0) / 100.0;
  }
}
