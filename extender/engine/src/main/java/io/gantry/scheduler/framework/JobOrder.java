package io.gantry.scheduler.framework;

import java.util.function.Predicate;

/** Orders jobs within a queue; negative puts {@code a} first. First non-zero plugin wins. */
public interface JobOrder extends Plugin {
  int compareJobs(JobState a, JobState b);

  /**
   * Compares two victim jobs counting only the tasks {@code leftA} and {@code leftB} accept: KAI
   * pushes a victim job it took a batch from back into its victim queue as a clone holding the
   * tasks not taken yet, and orders that clone by them (kai-reference §4.11).
   */
  default int compareVictimJobs(
      JobState a, Predicate<TaskState> leftA, JobState b, Predicate<TaskState> leftB) {
    return compareJobs(a, b);
  }
}
