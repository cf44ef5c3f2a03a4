package io.gantry.scheduler.actions;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.QueueDepthPerAction;
import io.gantry.scheduler.framework.ActionType;
import java.util.OptionalInt;

/**
 * What an action is built with: the eviction settings, placement strategy and per-action queue
 * depths of the configuration, and the ticker that measures search budgets (injected, so tests
 * drive time and the engine reads no clock of its own).
 */
public record ActionContext(
    EvictionSettings evictions,
    Placement placement,
    Ticker ticker,
    QueueDepthPerAction queueDepths) {
  public ActionContext {
    requireNonNull(evictions, "evictions is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(ticker, "ticker is null");
    requireNonNull(queueDepths, "queueDepths is null");
  }

  /** A context in which every action considers every job of a queue. */
  public ActionContext(EvictionSettings evictions, Placement placement, Ticker ticker) {
    this(evictions, placement, ticker, QueueDepthPerAction.NONE);
  }

  /** The most jobs per leaf queue {@code action} considers; empty when unlimited. */
  public OptionalInt queueDepth(ActionType action) {
    return queueDepths.forAction(action.actionName());
  }
}
