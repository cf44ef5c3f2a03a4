package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import java.util.List;
import java.util.Optional;

/**
 * KAI's action names mapped to Gantry's implementations. Until the eviction actions exist, the
 * default list is the actions that do exist; naming a missing one is an error.
 */
public final class ActionRegistry {
  public static final ImmutableList<String> DEFAULT_ACTIONS =
      ImmutableList.of(ActionType.ALLOCATE.actionName());

  private ActionRegistry() {}

  /** The actions in the given order; throws naming the first unknown or missing one. */
  public static ImmutableList<Action> build(List<String> names) {
    ImmutableList.Builder<Action> actions = ImmutableList.builder();
    for (String name : names) {
      Optional<ActionType> type = ActionType.byName(name);
      if (type.isEmpty()) {
        throw new IllegalArgumentException(
            "unknown action \""
                + name
                + "\"; KAI's actions are allocate, consolidation, reclaim,"
                + " preempt, stalegangeviction");
      }
      actions.add(
          switch (type.get()) {
            case ALLOCATE -> new AllocateAction();
            case CONSOLIDATION, RECLAIM, PREEMPT, STALE_GANG_EVICTION ->
                throw new IllegalArgumentException("action \"" + name + "\" is not supported yet");
          });
    }
    return actions.build();
  }
}
