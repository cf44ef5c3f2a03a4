package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;

/** What the planner says about one pod. */
sealed interface PlanOutcome
    permits PlanOutcome.Reserved, PlanOutcome.Rejected, PlanOutcome.NotManaged {

  /** The pod has capacity reserved (now or by an earlier plan). */
  record Reserved(Reservation reservation) implements PlanOutcome {
    public Reserved {
      requireNonNull(reservation, "reservation is null");
    }
  }

  /**
   * The pod cannot be placed now, for {@code message} (KAI's words). {@code resolvableNodes}: the
   * nodes where the engine would place it once victims are evicted ({@code victimTaskIds}); on
   * every other node no eviction helps.
   */
  record Rejected(
      String message, ImmutableSet<String> resolvableNodes, ImmutableSet<String> victimTaskIds)
      implements PlanOutcome {
    public Rejected {
      requireNonNull(message, "message is null");
      requireNonNull(resolvableNodes, "resolvableNodes is null");
      requireNonNull(victimTaskIds, "victimTaskIds is null");
    }
  }

  /** Gantry has no rule for this pod (not in a PodGroup of its scheduler, or not pending). */
  record NotManaged(String why) implements PlanOutcome {
    public NotManaged {
      requireNonNull(why, "why is null");
    }
  }
}
