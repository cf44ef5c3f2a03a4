package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Arguments of the minruntime plugin (kai-reference §10.2): the runtimes a job is protected for
 * when no queue on its path sets one, and how a reclaim finds the queue to read the reclaim
 * min-runtime from.
 */
public record MinRuntimeArgs(
    Duration defaultPreemptMinRuntime,
    Duration defaultReclaimMinRuntime,
    ResolveMethod reclaimResolveMethod) {

  public static final MinRuntimeArgs DEFAULTS =
      new MinRuntimeArgs(Duration.ZERO, Duration.ZERO, ResolveMethod.LCA);

  /** KAI's {@code reclaimResolveMethod}. */
  public enum ResolveMethod {
    /** Start below the lowest common ancestor of reclaimer and victim, on the victim's side. */
    LCA,
    /** Start at the victim's leaf queue. */
    QUEUE;

    static ResolveMethod parse(String value) {
      return switch (value) {
        case "lca" -> LCA;
        case "queue" -> QUEUE;
        default ->
            throw new IllegalArgumentException("expected lca or queue, got \"" + value + "\"");
      };
    }
  }

  public MinRuntimeArgs {
    requireNonNull(defaultPreemptMinRuntime, "defaultPreemptMinRuntime is null");
    requireNonNull(defaultReclaimMinRuntime, "defaultReclaimMinRuntime is null");
    requireNonNull(reclaimResolveMethod, "reclaimResolveMethod is null");
    if (defaultPreemptMinRuntime.isNegative() || defaultReclaimMinRuntime.isNegative()) {
      throw new IllegalArgumentException("min-runtimes must not be negative");
    }
  }
}
