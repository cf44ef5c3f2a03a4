package io.gantry.deviceagent.metrics;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.AtomicDouble;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A gauge with one row per tag set, set whole after each round of what it measures. A row that
 * stays keeps its meter and only its value changes: Micrometer's {@code MultiGauge.register(rows,
 * true)} replaces every meter, and a scrape that comes in between would miss the series. A row not
 * in the latest set loses its meter. Thread-safe.
 */
final class GaugeRows {
  private final MultiGauge gauge;
  private final Map<Tags, AtomicDouble> values = new HashMap<>();

  GaugeRows(MultiGauge gauge) {
    this.gauge = requireNonNull(gauge, "gauge is null");
  }

  /** The rows now, by their tags. */
  synchronized void set(Map<Tags, ? extends Number> rows) {
    values.keySet().retainAll(rows.keySet());
    List<MultiGauge.Row<?>> registered = new ArrayList<>();
    rows.forEach(
        (tags, value) -> {
          AtomicDouble holder = values.computeIfAbsent(tags, t -> new AtomicDouble());
          holder.set(value.doubleValue());
          registered.add(MultiGauge.Row.of(tags, holder, AtomicDouble::get));
        });
    gauge.register(registered, false);
  }
}
