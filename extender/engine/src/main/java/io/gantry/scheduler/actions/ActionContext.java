package io.gantry.scheduler.actions;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;

/**
 * What an action is built with: the eviction settings and placement strategy of the configuration,
 * and the ticker that measures search budgets (injected, so tests drive time and the engine reads
 * no clock of its own).
 */
public record ActionContext(EvictionSettings evictions, Placement placement, Ticker ticker) {
  public ActionContext {
    requireNonNull(evictions, "evictions is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(ticker, "ticker is null");
  }
}
