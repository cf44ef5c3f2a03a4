package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import java.util.Optional;

/**
 * What the victim search has gathered for one preemptor so far (kai-reference §4.11): victims that
 * earlier probes needed ({@code recorded}), the batches popped from the victim queue since ({@code
 * potential}, oldest first), the preemptor's tasks this probe places, and the nodes the preemptor
 * may use without evicting anything ({@code feasibleNodes}). Scenario generators turn it into the
 * scenarios that are simulated.
 */
public record AccumulatedScenario(
    JobState preemptor,
    ImmutableList<TaskState> pendingTasks,
    ImmutableList<TaskState> recorded,
    ImmutableList<VictimBatch> potential,
    ImmutableSet<String> feasibleNodes) {
  public AccumulatedScenario {
    requireNonNull(preemptor, "preemptor is null");
    requireNonNull(pendingTasks, "pendingTasks is null");
    requireNonNull(recorded, "recorded is null");
    requireNonNull(potential, "potential is null");
    requireNonNull(feasibleNodes, "feasibleNodes is null");
  }

  /** The batch popped last, whose nodes the node-local generator tries. */
  public Optional<VictimBatch> latest() {
    return potential.isEmpty()
        ? Optional.empty()
        : Optional.of(potential.get(potential.size() - 1));
  }
}
