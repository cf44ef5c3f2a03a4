package io.gantry.scheduler.cycle;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.actions.ActionContext;
import io.gantry.scheduler.actions.ActionRegistry;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.ExhaustiveNodeSearch;
import io.gantry.scheduler.framework.IndexedNodeSearch;
import io.gantry.scheduler.framework.NodeSearch;
import io.gantry.scheduler.plugins.PluginRegistry;
import java.util.List;

/**
 * The engine's composition root: turns one {@link SchedulerConfig} into a {@link SchedulingCycle}.
 * The simulator, the secondary scheduler and the HTTP extender all build their cycle here; none of
 * them names an action or plugin class. The registries and the ticker that measures the eviction
 * actions' search budgets are injected so tests can supply their own.
 */
public final class SchedulerWiring {
  private final ActionRegistry actions;
  private final PluginRegistry plugins;
  private final Ticker ticker;

  /** KAI's actions and plugins as this build implements them; budgets on the system ticker. */
  public SchedulerWiring() {
    this(new ActionRegistry(), new PluginRegistry(), Ticker.systemTicker());
  }

  /** KAI's actions and plugins, with DRA device selectors evaluated by {@code selectors}. */
  public SchedulerWiring(DeviceSelectorEvaluator selectors) {
    this(new ActionRegistry(), new PluginRegistry(selectors), Ticker.systemTicker());
  }

  public SchedulerWiring(ActionRegistry actions, PluginRegistry plugins) {
    this(actions, plugins, Ticker.systemTicker());
  }

  public SchedulerWiring(ActionRegistry actions, PluginRegistry plugins, Ticker ticker) {
    this.actions = requireNonNull(actions, "actions is null");
    this.plugins = requireNonNull(plugins, "plugins is null");
    this.ticker = requireNonNull(ticker, "ticker is null");
  }

  /**
   * A cycle for {@code config}, with every action and plugin setting checked now, so a bad
   * configuration stops start-up instead of the first cycle.
   *
   * @throws ConfigException naming the key of the first bad setting
   */
  public SchedulingCycle cycle(SchedulerConfig config) {
    return cycle(config, SearchStrategy.INDEXED);
  }

  /**
   * A cycle for {@code config} that searches with {@code strategy}: {@link SearchStrategy#INDEXED}
   * with an {@link IndexedNodeSearch}, {@link SearchStrategy#BASELINE} with an {@link
   * ExhaustiveNodeSearch}. Front doors use {@link #cycle(SchedulerConfig)}; the baseline is for
   * benchmarks and equivalence tests, and decides exactly what the indexed engine decides.
   *
   * @throws ConfigException naming the key of the first bad setting
   */
  public SchedulingCycle cycle(SchedulerConfig config, SearchStrategy strategy) {
    requireNonNull(config, "config is null");
    requireNonNull(strategy, "strategy is null");
    config.queueDepthPerAction().checkActions(config.actions());
    var built =
        actions.build(
            config.actions(),
            new ActionContext(
                config.evictions(), config.placement(), ticker, config.queueDepthPerAction()));
    // plugins hold per-cycle state, so each cycle builds its own; building one set now validates
    plugins.build(config.plugins(), config.placement());
    return new SchedulingCycle(
        built,
        () -> plugins.build(config.plugins(), config.placement()),
        search(strategy),
        plugins.publishedGpuDevices());
  }

  /**
   * An {@link Explainer} for {@code config}: its cycle, and the hypothetical cycles that run one
   * eviction action right after allocate ({@code reclaim}, {@code preempt}; without a per-action
   * queue depth, which may name actions these cycles do not run).
   *
   * @throws ConfigException naming the key of the first bad setting
   */
  public Explainer explainer(SchedulerConfig config) {
    SchedulingCycle configured = cycle(config);
    ImmutableMap.Builder<String, SchedulingCycle> evictions = ImmutableMap.builder();
    for (ActionType action : List.of(ActionType.RECLAIM, ActionType.PREEMPT)) {
      SchedulerConfig hypothetical =
          new SchedulerConfig(
              ImmutableList.of(ActionType.ALLOCATE.actionName(), action.actionName()),
              config.plugins(),
              config.placement(),
              config.evictions());
      evictions.put(action.actionName(), cycle(hypothetical));
    }
    return new Explainer(configured, evictions.buildOrThrow());
  }

  private static NodeSearch search(SearchStrategy strategy) {
    return switch (strategy) {
      case INDEXED -> new IndexedNodeSearch();
      case BASELINE -> new ExhaustiveNodeSearch();
    };
  }
}
