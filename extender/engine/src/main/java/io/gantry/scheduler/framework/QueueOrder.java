package io.gantry.scheduler.framework;

/**
 * Orders sibling queues, each with the job it would schedule next; negative puts {@code a} first.
 * First non-zero plugin wins.
 */
public interface QueueOrder extends Plugin {
  int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB);
}
