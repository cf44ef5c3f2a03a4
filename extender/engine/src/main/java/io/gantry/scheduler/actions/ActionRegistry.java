package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import java.util.List;
import java.util.Optional;

/**
 * KAI's action names mapped to Gantry's implementations. Actions hold no state between cycles, so
 * one instance of each serves every cycle. Naming an unknown action, or one not built yet, is an
 * error naming it.
 */
public final class ActionRegistry {

  /** The actions in the given order; throws {@link ConfigException} on key {@code actions}. */
  public ImmutableList<Action> build(List<String> names) {
    ImmutableList.Builder<Action> actions = ImmutableList.builder();
    for (String name : names) {
      Optional<ActionType> type = ActionType.byName(name);
      if (type.isEmpty()) {
        throw new ConfigException(
            "actions",
            "unknown action \""
                + name
                + "\"; KAI's actions are allocate, consolidation, reclaim,"
                + " preempt, stalegangeviction");
      }
      actions.add(
          switch (type.get()) {
            case ALLOCATE -> new AllocateAction();
            case CONSOLIDATION, RECLAIM, PREEMPT, STALE_GANG_EVICTION ->
                throw new ConfigException(
                    "actions", "action \"" + name + "\" is not supported yet");
          });
    }
    return actions.build();
  }
}
