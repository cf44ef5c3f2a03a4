package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * KAI's action names mapped to implementations. Actions hold no state between cycles, so one
 * instance of each serves every cycle. Naming an unknown action, or one without an implementation
 * in this build, is an error naming it.
 */
public final class ActionRegistry {
  private final ImmutableMap<ActionType, Function<ActionContext, Action>> implementations;

  /** The actions this build implements. */
  public ActionRegistry() {
    this(builtActions());
  }

  private ActionRegistry(
      ImmutableMap<ActionType, Function<ActionContext, Action>> implementations) {
    this.implementations = implementations;
  }

  /** Actions built from the context they run with. */
  public static ActionRegistry of(
      Map<ActionType, Function<ActionContext, Action>> implementations) {
    return new ActionRegistry(ImmutableMap.copyOf(implementations));
  }

  /** Actions that need no context (tests inject recording fakes). */
  public static ActionRegistry ofSuppliers(Map<ActionType, Supplier<Action>> implementations) {
    return new ActionRegistry(adapt(implementations));
  }

  private static ImmutableMap<ActionType, Function<ActionContext, Action>> builtActions() {
    return ImmutableMap.of(
        ActionType.ALLOCATE, AllocateAction::new,
        ActionType.CONSOLIDATION, ConsolidationAction::new,
        ActionType.RECLAIM, ReclaimAction::new,
        ActionType.PREEMPT, PreemptAction::new,
        ActionType.STALE_GANG_EVICTION, StaleGangEvictionAction::new);
  }

  /**
   * The actions in the given order, built with {@code context}; throws {@link ConfigException} on
   * key {@code actions}.
   */
  public ImmutableList<Action> build(List<String> names, ActionContext context) {
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
      Function<ActionContext, Action> implementation = implementations.get(type.get());
      if (implementation == null) {
        throw new ConfigException("actions", "action \"" + name + "\" is not supported yet");
      }
      actions.add(implementation.apply(context));
    }
    return actions.build();
  }

  private static ImmutableMap<ActionType, Function<ActionContext, Action>> adapt(
      Map<ActionType, Supplier<Action>> suppliers) {
    ImmutableMap.Builder<ActionType, Function<ActionContext, Action>> b = ImmutableMap.builder();
    suppliers.forEach((type, supplier) -> b.put(type, context -> supplier.get()));
    return b.buildOrThrow();
  }
}
