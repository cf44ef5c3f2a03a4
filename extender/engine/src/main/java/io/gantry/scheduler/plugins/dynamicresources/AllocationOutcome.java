package io.gantry.scheduler.plugins.dynamicresources;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.AllocationResult;

/** What {@link ClaimAllocator} found: an allocation for each claim, or why one claim has none. */
sealed interface AllocationOutcome permits AllocationOutcome.Allocated, AllocationOutcome.Failed {

  /** One result per claim asked for, in the same order. */
  record Allocated(ImmutableList<AllocationResult> results) implements AllocationOutcome {
    public Allocated {
      requireNonNull(results, "results is null");
    }
  }

  /** {@code claim} is {@code <namespace>/<name>}; {@code why} does not name the node. */
  record Failed(String claim, String why) implements AllocationOutcome {
    public Failed {
      requireNonNull(claim, "claim is null");
      requireNonNull(why, "why is null");
    }
  }
}
