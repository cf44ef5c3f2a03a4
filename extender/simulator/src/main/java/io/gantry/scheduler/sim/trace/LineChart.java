package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

/** A line chart as standalone SVG: one polyline per series, axes with ticks, and a legend. */
public final class LineChart {
  /** One line: its name and its points. */
  public static final class Series {
    private final String name;
    private final double[] x;
    private final double[] y;

    public Series(String name, double[] x, double[] y) {
      this.name = requireNonNull(name, "name is null");
      if (x.length != y.length) {
        throw new IllegalArgumentException("x and y differ in length");
      }
      this.x = x.clone();
      this.y = y.clone();
    }

    String name() {
      return name;
    }

    double[] x() {
      return x;
    }

    double[] y() {
      return y;
    }
  }

  private static final String[] COLOURS = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"
  };
  private static final int WIDTH = 760;
  private static final int HEIGHT = 420;
  private static final int LEFT = 60;
  private static final int RIGHT = 200;
  private static final int TOP = 30;
  private static final int BOTTOM = 50;

  private LineChart() {}

  public static String svg(String title, String xLabel, String yLabel, List<Series> series) {
    double xMin = Double.MAX_VALUE;
    double xMax = -Double.MAX_VALUE;
    double yMax = 0;
    for (Series s : series) {
      for (int i = 0; i < s.x().length; i++) {
        xMin = Math.min(xMin, s.x()[i]);
        xMax = Math.max(xMax, s.x()[i]);
        yMax = Math.max(yMax, s.y()[i]);
      }
    }
    if (xMax <= xMin) {
      xMax = xMin + 1;
    }
    yMax = Math.max(1, Math.ceil(yMax / 10) * 10);
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"18\" font-size=\"14\">%s</text>%n",
            LEFT,
            escape(title)));
    for (int t = 0; t <= 5; t++) {
      double yv = yMax * t / 5;
      double py = TOP + plotH - plotH * t / 5.0;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n",
              LEFT,
              py,
              LEFT + plotW,
              py,
              LEFT - 6,
              py + 4,
              yv));
    }
    double xStep = niceStep(xMax - xMin);
    for (double xv = Math.ceil(xMin / xStep) * xStep; xv <= xMax; xv += xStep) {
      double px = LEFT + plotW * (xv - xMin) / (xMax - xMin);
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>%n",
              px,
              TOP,
              px,
              TOP + plotH,
              px,
              TOP + plotH + 16,
              xv));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
            LEFT,
            TOP,
            plotW,
            plotH));
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            LEFT + plotW / 2,
            HEIGHT - 12,
            escape(xLabel)));
    b.append(
        String.format(
            Locale.ROOT,
            "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
            TOP + plotH / 2,
            escape(yLabel)));
    for (int s = 0; s < series.size(); s++) {
      Series line = series.get(s);
      String colour = COLOURS[s % COLOURS.length];
      StringBuilder points = new StringBuilder();
      for (int i = 0; i < line.x().length; i++) {
        double px = LEFT + plotW * (line.x()[i] - xMin) / (xMax - xMin);
        double py = TOP + plotH - plotH * line.y()[i] / yMax;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
      }
      b.append(
          String.format(
              Locale.ROOT,
              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
              colour,
              points.toString().trim()));
      int ly = TOP + 10 + s * 18;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>%n",
              LEFT + plotW + 12,
              ly,
              LEFT + plotW + 32,
              ly,
              colour,
              LEFT + plotW + 38,
              ly + 4,
              escape(line.name())));
    }
    b.append("</svg>\n");
    return b.toString();
  }

  /** An HTML page holding the charts inline, under a heading, with a preformatted table. */
  public static String html(String title, String table, List<String> svgs) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
        .append(escape(title))
        .append("</title></head>\n<body style=\"font-family:sans-serif\">\n<h1>")
        .append(escape(title))
        .append("</h1>\n");
    for (String svg : svgs) {
      b.append("<div>\n").append(svg).append("</div>\n");
    }
    b.append("<pre>").append(escape(table)).append("</pre>\n</body></html>\n");
    return b.toString();
  }

  private static double niceStep(double range) {
    double raw = range / 8;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (raw <= m * magnitude) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
