package io.gantry.scheduler.sim.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Locale;

/** The inflate comparison as a text table and as one JSON object. */
public final class InflateReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The x values the text's curve table shows. */
  private static final List<Integer> CURVE_COLUMNS = List.of(70, 80, 90, 100, 110, 120, 130);

  private InflateReport() {}

  public static String text(List<PolicySummary> summaries, List<Long> seeds, double ratio) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "inflate: %d seed(s) %s, ratio %.2f; unallocated share of GPU capacity at x = arrived"
                + " GPU demand as %% of capacity%n%n",
            seeds.size(),
            seeds,
            ratio));
    b.append(
        String.format(
            Locale.ROOT,
            "%-22s %18s %12s %12s %9s %9s%n",
            "policy",
            "unalloc@100 (%)",
            "frag@100 (%)",
            "cpu@100 (%)",
            "placed",
            "s/run"));
    for (PolicySummary s : summaries) {
      if (s.points() <= 100) {
        continue;
      }
      PolicySummary.Stat u = s.unallocated(100);
      double placed = s.runs().stream().mapToInt(InflateResult::placed).average().orElse(0);
      b.append(
          String.format(
              Locale.ROOT,
              "%-22s %10.2f ± %5.2f %12.2f %12.2f %9.0f %9.1f%n",
              label(s),
              u.mean(),
              u.sd(),
              s.fragmentationMean(100).orElse(Double.NaN),
              s.cpuBoundMean(100).orElse(Double.NaN),
              placed,
              s.secondsMean()));
    }
    b.append(String.format(Locale.ROOT, "%nmean unallocated %% by x%n%-22s", "policy"));
    for (int x : CURVE_COLUMNS) {
      b.append(String.format(Locale.ROOT, " %7s", "x=" + x));
    }
    b.append(System.lineSeparator());
    for (PolicySummary s : summaries) {
      b.append(String.format(Locale.ROOT, "%-22s", label(s)));
      for (int x : CURVE_COLUMNS) {
        b.append(
            x < s.points()
                ? String.format(Locale.ROOT, " %7.2f", s.unallocated(x).mean())
                : String.format(Locale.ROOT, " %7s", "-"));
      }
      b.append(System.lineSeparator());
    }
    b.append(String.format(Locale.ROOT, "%nunallocated %% at x=100 per seed%n"));
    for (PolicySummary s : summaries) {
      if (s.points() <= 100) {
        continue;
      }
      b.append(String.format(Locale.ROOT, "%-22s", label(s)));
      for (InflateResult r : s.runs()) {
        b.append(String.format(Locale.ROOT, " %6.2f", r.at(100).unallocatedPercent()));
      }
      b.append(System.lineSeparator());
    }
    return b.toString();
  }

  /** The policy's name, with KAI's default marked. */
  static String label(PolicySummary s) {
    String name = s.policy().k8sName();
    return s.policy() == io.gantry.scheduler.api.config.PlacementStrategy.BINPACK
        ? name + " (KAI default)"
        : name;
  }

  public static String json(List<PolicySummary> summaries, List<Long> seeds, double ratio) {
    ObjectNode root = JSON.createObjectNode();
    root.put("mode", "inflate");
    ArrayNode seedArray = root.putArray("seeds");
    seeds.forEach(seedArray::add);
    root.put("ratio", ratio);
    ArrayNode policies = root.putArray("policies");
    for (PolicySummary s : summaries) {
      ObjectNode p = policies.addObject();
      p.put("policy", s.policy().k8sName());
      ArrayNode mean = p.putArray("meanUnallocatedPercent");
      ArrayNode sd = p.putArray("sdUnallocatedPercent");
      for (int x = 0; x < s.points(); x++) {
        PolicySummary.Stat st = s.unallocated(x);
        mean.add(round(st.mean()));
        sd.add(round(st.sd()));
      }
      ArrayNode runs = p.putArray("runs");
      for (InflateResult r : s.runs()) {
        ObjectNode run = runs.addObject();
        run.put("seed", r.seed());
        run.put("arrivals", r.arrivals());
        run.put("placed", r.placed());
        run.put("seconds", round(r.seconds()));
        ArrayNode points = run.putArray("points");
        for (InflatePoint pt : r.curve()) {
          ObjectNode o = points.addObject();
          o.put("x", pt.arrivedPercent());
          o.put("unallocatedPercent", round(pt.unallocatedPercent()));
          pt.fragmentationPercent().ifPresent(v -> o.put("fragmentationPercent", round(v)));
          pt.cpuBoundPercent().ifPresent(v -> o.put("cpuBoundPercent", round(v)));
        }
      }
    }
    return root.toString();
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }

  /** The chart's series: each policy's mean unallocated % at every x. */
  public static ImmutableList<LineChart.Series> series(List<PolicySummary> summaries) {
    ImmutableList.Builder<LineChart.Series> out = ImmutableList.builder();
    for (PolicySummary s : summaries) {
      double[] y = new double[s.points()];
      double[] x = new double[s.points()];
      for (int i = 0; i < y.length; i++) {
        x[i] = i;
        y[i] = s.unallocated(i).mean();
      }
      out.add(new LineChart.Series(label(s), x, y));
    }
    return out.build();
  }
}
