package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * KAI's {@code queueDepthPerAction} (kai-reference §2.5, §4.5): for an action, the most jobs of one
 * leaf queue it considers in a cycle. An action without an entry considers every job; {@value
 * #UNLIMITED} says so explicitly, as in KAI. KAI bounds each leaf queue's job heap when the action
 * builds its job order, and drops the job at heap index N when a push makes it N+1 long, which is
 * not necessarily the last job in order; the engine's job order keeps that rule.
 */
public record QueueDepthPerAction(ImmutableSortedMap<String, Integer> depths) {
  /** KAI's {@code QueueCapacityInfinite}. */
  public static final int UNLIMITED = -1;

  public static final QueueDepthPerAction NONE = new QueueDepthPerAction(ImmutableSortedMap.of());

  public QueueDepthPerAction {
    requireNonNull(depths, "depths is null");
    depths.forEach(
        (action, depth) -> {
          if (depth < UNLIMITED) {
            throw new ConfigException(
                "queueDepthPerAction." + action,
                "must be -1 (unlimited) or >= 0 jobs per queue, got " + depth);
          }
        });
  }

  public static QueueDepthPerAction of(Map<String, Integer> depths) {
    return new QueueDepthPerAction(ImmutableSortedMap.copyOf(depths));
  }

  /** The most jobs per leaf queue {@code actionName} considers; empty when unlimited. */
  public OptionalInt forAction(String actionName) {
    Integer depth = depths.get(actionName);
    return depth == null || depth == UNLIMITED ? OptionalInt.empty() : OptionalInt.of(depth);
  }

  /**
   * Every key names one of {@code actions}, the actions the configuration runs (KAI: keys must be
   * enabled actions).
   *
   * @throws ConfigException naming {@code queueDepthPerAction.<key>}
   */
  public void checkActions(List<String> actions) {
    for (String action : depths.keySet()) {
      if (!actions.contains(action)) {
        throw new ConfigException(
            "queueDepthPerAction." + action,
            "\""
                + action
                + "\" is not one of the configured actions "
                + String.join(", ", actions));
      }
    }
  }
}
