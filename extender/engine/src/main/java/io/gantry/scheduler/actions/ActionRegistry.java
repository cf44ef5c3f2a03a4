package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * KAI's action names mapped to implementations. Actions hold no state between cycles, so one
 * instance of each serves every cycle. Naming an unknown action, or one without an implementation
 * in this build, is an error naming it.
 */
public final class ActionRegistry {
  private final ImmutableMap<ActionType, Supplier<Action>> implementations;

  /** The actions this build implements. */
  public ActionRegistry() {
    this(ImmutableMap.of(ActionType.ALLOCATE, AllocateAction::new));
  }

  public ActionRegistry(Map<ActionType, Supplier<Action>> implementations) {
    this.implementations = ImmutableMap.copyOf(implementations);
  }

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
      Supplier<Action> implementation = implementations.get(type.get());
      if (implementation == null) {
        throw new ConfigException("actions", "action \"" + name + "\" is not supported yet");
      }
      actions.add(implementation.get());
    }
    return actions.build();
  }
}
