package io.gantry.scheduler.framework;

import java.util.Arrays;
import java.util.Optional;

/** KAI's actions, by name; only those with an implementation can be configured. */
public enum ActionType {
  ALLOCATE("allocate"),
  CONSOLIDATION("consolidation"),
  RECLAIM("reclaim"),
  PREEMPT("preempt"),
  STALE_GANG_EVICTION("stalegangeviction");

  private final String actionName;

  ActionType(String actionName) {
    this.actionName = actionName;
  }

  public String actionName() {
    return actionName;
  }

  public static Optional<ActionType> byName(String name) {
    return Arrays.stream(values()).filter(a -> a.actionName.equals(name)).findFirst();
  }
}
