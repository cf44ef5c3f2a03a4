package io.gantry.scheduler.actions;

/**
 * Why a preemptor's victim search stopped (KAI's search results, kai-reference §4.11). The action
 * stops on {@link #DEADLINE_EXHAUSTED} and {@link #NOT_ATTEMPTED}.
 */
enum SearchResult {
  /** Victims were found and the preemptor fits. */
  SOLVED,
  /** The job's (or action's) time ran out before a solution was found. */
  DEADLINE_EXHAUSTED,
  /** Every generator ran out of scenarios. */
  GENERATORS_EXHAUSTED,
  /** No scenario generator plugin is enabled. */
  NO_GENERATOR,
  /** The action's time was spent before this job's search started. */
  NOT_ATTEMPTED;

  boolean stopsAction() {
    return switch (this) {
      case DEADLINE_EXHAUSTED, NOT_ATTEMPTED -> true;
      case SOLVED, GENERATORS_EXHAUSTED, NO_GENERATOR -> false;
    };
  }
}
