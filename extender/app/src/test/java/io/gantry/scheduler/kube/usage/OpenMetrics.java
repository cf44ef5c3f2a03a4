package io.gantry.scheduler.kube.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/**
 * Gauge samples for {@link PrometheusServer}'s backfill, one a minute, in OpenMetrics text: each
 * family's series together under its {@code # TYPE} line, then {@code # EOF}.
 */
public final class OpenMetrics {
  private final Instant end;
  private final int minutes;
  private final Map<String, List<String>> families = new LinkedHashMap<>();

  /** Samples at {@code end}, {@code end - 1m}, … {@code end - minutes}. */
  public OpenMetrics(Instant end, int minutes) {
    this.end = end;
    this.minutes = minutes;
  }

  /**
   * One series: {@code value.applyAsDouble(k)} is its value {@code k} minutes before the end; a NaN
   * value leaves that minute out.
   */
  public OpenMetrics gauge(String family, String labels, IntToDoubleFunction value) {
    List<String> lines = families.computeIfAbsent(family, f -> new ArrayList<>());
    for (int k = minutes; k >= 0; k--) {
      double v = value.applyAsDouble(k);
      if (!Double.isNaN(v)) {
        long at = end.minusSeconds(60L * k).getEpochSecond();
        lines.add(family + "{" + labels + "} " + v + " " + at);
      }
    }
    return this;
  }

  public String text() {
    StringBuilder out = new StringBuilder();
    families.forEach(
        (family, lines) -> {
          out.append("# TYPE ").append(family).append(" gauge\n");
          lines.forEach(l -> out.append(l).append('\n'));
        });
    return out.append("# EOF\n").toString();
  }
}
