package io.gantry.cli.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;

/** An {@link E2eResult} as one JSON line or as text. */
public final class E2eReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  private E2eReport() {}

  public static String toJson(E2eResult r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("preset", r.preset());
    o.put("nodes", r.nodes());
    o.put("pods", r.pods());
    o.put("allBound", r.allBound());
    o.put("boundPods", r.boundPods());
    o.put("podsPerSecond", round(r.podsPerSecond()));
    o.put("ceilingPodsPerSecond", round(r.ceilingPodsPerSecond()));
    o.put("ratio", Math.round(r.ratio() * 1000) / 1000.0);
    o.put("writesPerPod", Math.round(r.writesPerPod() * 1000) / 1000.0);
    o.put("startToFirstBindMillis", round(r.startToFirstBindMillis()));
    o.put("createdToBoundP50Millis", round(r.createdToBoundP50Millis()));
    o.put("createdToBoundP99Millis", round(r.createdToBoundP99Millis()));
    o.put("cycles", r.cycles());
    ObjectNode requests = o.putObject("requests");
    r.requests().forEach(requests::put);
    ObjectNode perPod = o.putObject("requestsPerPod");
    r.requests()
        .forEach(
            (k, v) -> perPod.put(k, Math.round(v * 1000.0 / Math.max(1, r.boundPods())) / 1000.0));
    o.put("peakHeapBytes", r.peakHeapBytes());
    o.put("processCpuSeconds", round(r.processCpuSeconds()));
    o.put("fakeServerCpuSeconds", round(r.fakeServerCpuSeconds()));
    o.put("ceilingAllBound", r.ceilingAllBound());
    return o.toString();
  }

  public static String toText(E2eResult r) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "%s: %d nodes, %d pods, %d bound%s%n",
            r.preset(),
            r.nodes(),
            r.pods(),
            r.boundPods(),
            r.allBound() ? "" : " (NOT ALL)"));
    s.append(
        String.format(
            Locale.ROOT,
            "  %.0f pods/s end to end; ceiling %.0f pods/s (bindings only); ratio %.2f%n",
            r.podsPerSecond(),
            r.ceilingPodsPerSecond(),
            r.ratio()));
    s.append(
        String.format(
            Locale.ROOT,
            "  start to first bind %.0f ms; creation to bound p50 %.0f ms, p99 %.0f ms; %d"
                + " cycles%n",
            r.startToFirstBindMillis(),
            r.createdToBoundP50Millis(),
            r.createdToBoundP99Millis(),
            r.cycles()));
    s.append(
        String.format(
            Locale.ROOT,
            "  peak heap %d MiB; CPU %.1f s (fake API server %.1f s)%n",
            r.peakHeapBytes() >> 20,
            r.processCpuSeconds(),
            r.fakeServerCpuSeconds()));
    s.append(
        String.format(Locale.ROOT, "  %.3f writes per bound pod; requests:%n", r.writesPerPod()));
    for (Map.Entry<String, Integer> e : r.requests().entrySet()) {
      s.append(
          String.format(
              Locale.ROOT,
              "    %-40s %8d  %.3f/pod%n",
              e.getKey(),
              e.getValue(),
              e.getValue() / (double) Math.max(1, r.boundPods())));
    }
    return s.toString();
  }

  public static String toJson(MemoryResult r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("preset", r.preset());
    o.put("nodes", r.nodes());
    o.put("runningPods", r.runningPods());
    o.put("cycles", r.cycles());
    o.put("schedulerHeapAfterGcBytes", r.schedulerHeapAfterGcBytes());
    o.put("serverHeapAfterGcBytes", r.serverHeapAfterGcBytes());
    o.put("totalHeapAfterGcBytes", r.totalHeapAfterGcBytes());
    return o.toString();
  }

  public static String toText(MemoryResult r) {
    return String.format(
        Locale.ROOT,
        "%s: %d nodes, %d running pods, %d cycles%n  scheduler heap after a full GC %d MiB"
            + " (fake API server alone %d MiB, both %d MiB)%n",
        r.preset(),
        r.nodes(),
        r.runningPods(),
        r.cycles(),
        r.schedulerHeapAfterGcBytes() >> 20,
        r.serverHeapAfterGcBytes() >> 20,
        r.totalHeapAfterGcBytes() >> 20);
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
