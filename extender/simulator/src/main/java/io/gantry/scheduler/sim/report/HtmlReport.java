// Over 450 lines on purpose: one self-contained page is one file, its CSS and each chart's SVG
// drawing in the order the page shows them; the numbers it draws come from CycleHistory and
// RunSummary, which stand apart.
package io.gantry.scheduler.sim.report;

import com.google.common.escape.Escaper;
import com.google.common.html.HtmlEscapers;
import io.gantry.scheduler.api.result.PendingReason;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.SharedGpuGroup;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import io.gantry.scheduler.sim.report.CycleHistory.Cycle;
import io.gantry.scheduler.sim.report.CycleHistory.JobState;
import io.gantry.scheduler.sim.report.CycleHistory.QueuePoint;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code gantry simulate --report}: one self-contained HTML page (inline CSS and SVG, nothing
 * fetched) showing a run: the summary line; per queue, its fair share and allocation in GPUs over
 * the cycles; the cluster's GPUs in use over the cycles; a heat map of GPUs in use per node, shared
 * GPU groups marked; pending pods by reason; and for a run of more than one cycle each job's state
 * per cycle. Every plotted point carries its number in {@code data-*} attributes ({@code
 * data-value}, {@code data-used}, {@code data-count}, {@code data-state}), so the page can be
 * checked against the result it draws.
 */
public final class HtmlReport {
  /** The most jobs the timeline draws; a larger run says how many it left out. */
  static final int MAX_TIMELINE_JOBS = 400;

  private static final Escaper ESCAPE = HtmlEscapers.htmlEscaper();
  private static final int CHART_WIDTH = 640;
  private static final int CHART_HEIGHT = 180;
  private static final int MARGIN = 40;
  private static final String CSS =
      """
      body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;\
      max-width:1100px}
      h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
      .summary{font-size:15px;background:#f4f6f8;padding:8px 12px;border-radius:6px}
      .charts{display:flex;flex-wrap:wrap;gap:16px}
      figure{margin:0}figcaption{font-size:13px;font-weight:600;margin-bottom:2px}
      svg{background:#fff;border:1px solid #e3e6ea;border-radius:4px}
      svg text{font-size:11px;fill:#555}
      .axis{stroke:#bbb;stroke-width:1}
      .fair-share{stroke:#1f77b4;fill:none;stroke-width:2;stroke-dasharray:6 3}
      .allocated{stroke:#ff7f0e;fill:none;stroke-width:2}
      .quota{stroke:#2ca02c;fill:none;stroke-width:1;stroke-dasharray:2 2}
      .used{stroke:#9467bd;fill:none;stroke-width:2}
      circle.fair-share{fill:#1f77b4}circle.allocated{fill:#ff7f0e}circle.used{fill:#9467bd}
      .legend span{display:inline-block;margin-right:14px;font-size:12px}
      .swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;\
      vertical-align:-2px}
      rect.node{stroke:#888;stroke-width:1}rect.node.shared{stroke:#d62728;stroke-width:2.5;\
      stroke-dasharray:4 2}
      rect.bar{fill:#f0ad4e}
      .pending{fill:#f0ad4e}.running{fill:#5cb85c}.pipelined{fill:#5bc0de}.evicted{fill:#d9534f}\
      .done{fill:#d0d0d0}
      .note{font-size:12px;color:#666}
      """;

  private HtmlReport() {}

  /** The page for {@code result}, drawn over the cycles {@code history} recorded. */
  public static String render(SimulationResult result, CycleHistory history) {
    List<Cycle> cycles = history.cycles();
    StringBuilder out = new StringBuilder();
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>Gantry simulation: ")
        .append(esc(result.scenario()))
        .append("</title>\n<style>\n")
        .append(CSS)
        .append("</style>\n</head>\n<body>\n<h1>Scenario ")
        .append(esc(result.scenario()))
        .append("</h1>\n<p class=\"summary\" id=\"summary\">")
        .append(esc(RunSummary.of(result).line()))
        .append(" &middot; ")
        .append(result.cycles())
        .append(result.cycles() == 1 ? " cycle" : " cycles")
        .append("</p>\n");
    queues(out, result, cycles);
    cluster(out, cycles);
    nodes(out, result);
    pending(out, result);
    if (cycles.size() > 1) {
      timeline(out, result, cycles);
    }
    out.append("</body>\n</html>\n");
    return out.toString();
  }

  private static void queues(StringBuilder out, SimulationResult result, List<Cycle> cycles) {
    out.append("<section id=\"queues\">\n<h2>Queues: fair share and allocation (GPUs)</h2>\n")
        .append("<p class=\"legend\">")
        .append(legend("#1f77b4", "fair share (dashed)"))
        .append(legend("#ff7f0e", "allocated"))
        .append(legend("#2ca02c", "quota (dotted)"))
        .append("</p>\n<div class=\"charts\">\n");
    if (result.queues().isEmpty()) {
      out.append("<p class=\"note\">No queues.</p>\n");
    }
    for (QueueTreeOrder.Row row : QueueTreeOrder.of(result.queues())) {
      String queue = row.queue().queue();
      double quota = row.queue().quota().gpu();
      double max = Math.max(quota, 0);
      for (Cycle c : cycles) {
        QueuePoint p = c.queues().get(queue);
        if (p != null) {
          max = Math.max(max, Math.max(p.fairShareGpus(), p.allocatedGpus()));
        }
      }
      Chart chart = new Chart(cycles.size(), max);
      StringBuilder svg = new StringBuilder();
      chart.axes(svg);
      if (quota >= 0) {
        double y = chart.y(quota);
        svg.append(
            String.format(
                "<line class=\"quota\" x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" data-value=\"%s\"/>",
                MARGIN, CHART_WIDTH - 10, num(y), num(y), num(quota)));
      }
      series(svg, chart, cycles, queue, "fair-share", QueuePoint::fairShareGpus);
      series(svg, chart, cycles, queue, "allocated", QueuePoint::allocatedGpus);
      out.append("<figure data-queue=\"")
          .append(esc(queue))
          .append("\"><figcaption>")
          .append(esc(queue))
          .append(row.queue().parent().map(p -> " (in " + esc(p) + ")").orElse(""))
          .append("</figcaption>")
          .append(chart.svg(svg))
          .append("</figure>\n");
    }
    out.append("</div>\n</section>\n");
  }

  private static void series(
      StringBuilder svg,
      Chart chart,
      List<Cycle> cycles,
      String queue,
      String name,
      ToDoubleFunction<QueuePoint> value) {
    StringBuilder line = new StringBuilder();
    StringBuilder points = new StringBuilder();
    for (int i = 0; i < cycles.size(); i++) {
      QueuePoint p = cycles.get(i).queues().get(queue);
      if (p == null) {
        continue;
      }
      double v = value.applyAsDouble(p);
      String x = num(chart.x(i));
      String y = num(chart.y(v));
      line.append(line.length() == 0 ? "" : " ").append(x).append(',').append(y);
      points.append(
          String.format(
              "<circle class=\"%s\" r=\"3\" cx=\"%s\" cy=\"%s\" data-queue=\"%s\""
                  + " data-series=\"%s\" data-cycle=\"%d\" data-value=\"%s\"><title>cycle %d: %s"
                  + " GPUs</title></circle>",
              name,
              x,
              y,
              esc(queue),
              name,
              cycles.get(i).cycle(),
              num(v),
              cycles.get(i).cycle(),
              num(v)));
    }
    svg.append("<polyline class=\"")
        .append(name)
        .append("\" points=\"")
        .append(line)
        .append("\"/>")
        .append(points);
  }

  private static void cluster(StringBuilder out, List<Cycle> cycles) {
    double max = 0;
    for (Cycle c : cycles) {
      max = Math.max(max, c.totalGpus());
    }
    Chart chart = new Chart(cycles.size(), max);
    StringBuilder svg = new StringBuilder();
    chart.axes(svg);
    StringBuilder line = new StringBuilder();
    StringBuilder points = new StringBuilder();
    for (int i = 0; i < cycles.size(); i++) {
      Cycle c = cycles.get(i);
      String x = num(chart.x(i));
      String y = num(chart.y(c.usedGpus()));
      line.append(line.length() == 0 ? "" : " ").append(x).append(',').append(y);
      points.append(
          String.format(
              "<circle class=\"used\" r=\"3\" cx=\"%s\" cy=\"%s\" data-cycle=\"%d\""
                  + " data-used=\"%d\" data-total=\"%d\"><title>cycle %d: %d of %d GPUs"
                  + "</title></circle>",
              x,
              y,
              c.cycle(),
              c.usedGpus(),
              c.totalGpus(),
              c.cycle(),
              c.usedGpus(),
              c.totalGpus()));
    }
    svg.append("<polyline class=\"used\" points=\"").append(line).append("\"/>").append(points);
    out.append("<section id=\"cluster\">\n<h2>Cluster GPU allocation</h2>\n")
        .append("<p class=\"note\">GPU devices in use over the cycles; the axis ends at the")
        .append(" cluster's ")
        .append(num(max))
        .append(" devices.</p>\n")
        .append(chart.svg(svg))
        .append("\n</section>\n");
  }

  private static void nodes(StringBuilder out, SimulationResult result) {
    int perRow = Math.max(1, Math.min(20, (int) Math.ceil(Math.sqrt(result.nodes().size() * 2.0))));
    int cell = result.nodes().size() > 200 ? 16 : 44;
    boolean labels = cell >= 44;
    int rows = (result.nodes().size() + perRow - 1) / perRow;
    int width = perRow * (cell + 6) + 6;
    int height = rows * (cell + (labels ? 20 : 6)) + 6;
    StringBuilder svg = new StringBuilder();
    for (int i = 0; i < result.nodes().size(); i++) {
      NodeResult n = result.nodes().get(i);
      int total = n.idleGpus() + n.releasingGpus() + n.usedGpus();
      double fraction = total == 0 ? 0 : (double) n.usedGpus() / total;
      int x = 6 + (i % perRow) * (cell + 6);
      int y = 6 + (i / perRow) * (cell + (labels ? 20 : 6));
      List<String> groups = new ArrayList<>();
      for (SharedGpuGroup g : n.sharedGpuGroups()) {
        groups.add(g.group() + " " + num(g.usedFraction()));
      }
      svg.append(
          String.format(
              "<rect class=\"node%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
                  + " fill=\"%s\" data-node=\"%s\" data-used=\"%d\" data-total=\"%d\""
                  + " data-shared-groups=\"%d\"><title>%s: %d of %d GPUs used%s</title></rect>",
              groups.isEmpty() ? "" : " shared",
              x,
              y,
              cell,
              cell,
              heat(fraction, total),
              esc(n.node()),
              n.usedGpus(),
              total,
              groups.size(),
              esc(n.node()),
              n.usedGpus(),
              total,
              groups.isEmpty() ? "" : "; shared: " + esc(String.join(", ", groups))));
      if (labels) {
        svg.append(
            String.format(
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d/%d</text>",
                x + cell / 2, y + cell / 2 + 4, n.usedGpus(), total));
        svg.append(
            String.format(
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                x + cell / 2, y + cell + 13, esc(shorten(n.node(), 8))));
      }
    }
    out.append("<section id=\"nodes\">\n<h2>Nodes: GPUs in use</h2>\n")
        .append("<p class=\"note\">Darker is fuller; a dashed red border marks a node with shared")
        .append(" GPU groups (fractions of a device). Grey: no GPUs.</p>\n");
    if (result.nodes().isEmpty()) {
      out.append("<p class=\"note\">No nodes.</p>\n");
    } else {
      out.append(
              String.format(
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                      + " viewBox=\"0 0 %d %d\">",
                  width, height, width, height))
          .append(svg)
          .append("</svg>\n");
    }
    out.append("</section>\n");
  }

  /** White to dark blue by the fraction in use; grey for a node without GPUs. */
  private static String heat(double fraction, int total) {
    if (total == 0) {
      return "#eeeeee";
    }
    int r = (int) Math.round(235 - fraction * (235 - 8));
    int g = (int) Math.round(242 - fraction * (242 - 69));
    int b = (int) Math.round(250 - fraction * (250 - 148));
    return String.format("#%02x%02x%02x", r, g, b);
  }

  private static void pending(StringBuilder out, SimulationResult result) {
    Map<PendingReason, Integer> counts = pendingByReason(result);
    out.append("<section id=\"pending\">\n<h2>Pending pods by reason</h2>\n");
    if (counts.isEmpty()) {
      out.append("<p class=\"note\">No pod is pending.</p>\n</section>\n");
      return;
    }
    int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(1);
    int rowHeight = 22;
    int height = counts.size() * rowHeight + 10;
    StringBuilder svg = new StringBuilder();
    int row = 0;
    for (Map.Entry<PendingReason, Integer> e : counts.entrySet()) {
      int y = 5 + row * rowHeight;
      double width = (CHART_WIDTH - 200.0) * e.getValue() / max;
      svg.append(
              String.format(
                  "<text x=\"120\" y=\"%d\" text-anchor=\"end\">%s</text>",
                  y + 14, e.getKey().label()))
          .append(
              String.format(
                  "<rect class=\"bar\" x=\"130\" y=\"%d\" width=\"%s\" height=\"16\""
                      + " data-reason=\"%s\" data-count=\"%d\"/>",
                  y, num(width), e.getKey().label(), e.getValue()))
          .append(
              String.format(
                  "<text x=\"%s\" y=\"%d\">%d</text>", num(135 + width), y + 14, e.getValue()));
      row++;
    }
    out.append(
            String.format(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\">",
                CHART_WIDTH, height, CHART_WIDTH, height))
        .append(svg)
        .append("</svg>\n</section>\n");
  }

  /** Waiting tasks by reason, in {@link PendingReason}'s order; reasons no task has left out. */
  static Map<PendingReason, Integer> pendingByReason(SimulationResult result) {
    Map<PendingReason, Integer> counts = new EnumMap<>(PendingReason.class);
    for (TaskResult t : result.tasks()) {
      if (t.status().equals("Pending") || t.status().equals("Gated")) {
        TaskStatus status = t.status().equals("Gated") ? TaskStatus.GATED : TaskStatus.PENDING;
        counts.merge(PendingReason.of(status, t.message()), 1, Integer::sum);
      }
    }
    return counts;
  }

  private static void timeline(StringBuilder out, SimulationResult result, List<Cycle> cycles) {
    List<String> jobs = new ArrayList<>();
    result.jobs().forEach(j -> jobs.add(j.job()));
    int shown = Math.min(jobs.size(), MAX_TIMELINE_JOBS);
    int label = 170;
    int cellWidth = Math.max(2, Math.min(24, (CHART_WIDTH - label) / Math.max(1, cycles.size())));
    int rowHeight = 14;
    int width = label + cellWidth * cycles.size() + 10;
    int height = shown * rowHeight + 24;
    StringBuilder svg = new StringBuilder();
    for (int i = 0; i < cycles.size(); i += Math.max(1, cycles.size() / 10)) {
      svg.append(
          String.format(
              "<text x=\"%d\" y=\"12\">%d</text>", label + i * cellWidth, cycles.get(i).cycle()));
    }
    for (int j = 0; j < shown; j++) {
      String job = jobs.get(j);
      int y = 18 + j * rowHeight;
      svg.append(
          String.format(
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>",
              label - 6, y + 10, esc(shorten(job, 28))));
      for (int i = 0; i < cycles.size(); i++) {
        JobState state = cycles.get(i).jobs().get(job);
        if (state == null) {
          continue;
        }
        svg.append(
            String.format(
                "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" data-job=\"%s\""
                    + " data-cycle=\"%d\" data-state=\"%s\"><title>%s, cycle %d: %s</title>"
                    + "</rect>",
                state.label(),
                label + i * cellWidth,
                y,
                cellWidth,
                rowHeight - 2,
                esc(job),
                cycles.get(i).cycle(),
                state.label(),
                esc(job),
                cycles.get(i).cycle(),
                state.label()));
      }
    }
    out.append("<section id=\"timeline\">\n<h2>Jobs over the cycles</h2>\n<p class=\"legend\">");
    for (JobState s : JobState.values()) {
      out.append("<span><span class=\"swatch\"><svg width=\"12\" height=\"12\"><rect class=\"")
          .append(s.label())
          .append("\" width=\"12\" height=\"12\"/></svg></span>")
          .append(s.label())
          .append("</span>");
    }
    out.append("</p>\n");
    if (shown < jobs.size()) {
      out.append("<p class=\"note\">The first ")
          .append(shown)
          .append(" of ")
          .append(jobs.size())
          .append(" jobs.</p>\n");
    }
    out.append(
            String.format(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\">",
                width, height, width, height))
        .append(svg)
        .append("</svg>\n</section>\n");
  }

  private static String legend(String color, String text) {
    return "<span><span class=\"swatch\" style=\"background:"
        + color
        + "\"></span>"
        + esc(text)
        + "</span>";
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  private static String esc(String s) {
    return ESCAPE.escape(s);
  }

  /** A number as written in the page: plain decimal, no trailing zeros. */
  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** A line chart's frame: cycles along x, 0 to {@code max} along y. */
  private static final class Chart {
    private final int points;
    private final double max;

    Chart(int points, double max) {
      this.points = points;
      this.max = max <= 0 ? 1 : max;
    }

    double x(int index) {
      if (points <= 1) {
        return MARGIN + (CHART_WIDTH - MARGIN - 10) / 2.0;
      }
      return MARGIN + (CHART_WIDTH - MARGIN - 10) * index / (double) (points - 1);
    }

    double y(double value) {
      return CHART_HEIGHT - 20 - (CHART_HEIGHT - 30) * value / max;
    }

    void axes(StringBuilder svg) {
      svg.append(
              String.format(
                  "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>",
                  MARGIN, CHART_WIDTH - 10, CHART_HEIGHT - 20, CHART_HEIGHT - 20))
          .append(
              String.format(
                  "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"10\" y2=\"%d\"/>",
                  MARGIN, MARGIN, CHART_HEIGHT - 20))
          .append(
              String.format(
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>",
                  MARGIN - 4, CHART_HEIGHT - 17))
          .append(
              String.format(
                  "<text x=\"%d\" y=\"14\" text-anchor=\"end\">%s</text>", MARGIN - 4, num(max)))
          .append(
              String.format(
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">cycle</text>",
                  CHART_WIDTH / 2, CHART_HEIGHT - 4));
    }

    String svg(StringBuilder content) {
      return String.format(
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                  + " viewBox=\"0 0 %d %d\">",
              CHART_WIDTH, CHART_HEIGHT, CHART_WIDTH, CHART_HEIGHT)
          + content
          + "</svg>";
    }
  }
}
