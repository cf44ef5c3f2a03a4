package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.Resources;

/**
 * The queue order as a victim queue reads it (kai-reference §4.5): like {@link QueueOrder}, but
 * each queue's allocation is taken as if the victims already chosen from its subtree ({@code
 * removedA}, {@code removedB}: GPUs, CPU, memory) were gone. Negative puts {@code a} first in
 * scheduling order; the victim queue reverses it. First non-zero plugin wins.
 */
public interface VictimQueueOrder extends Plugin {
  int compareVictimQueues(
      String queueA,
      JobState jobA,
      Resources removedA,
      String queueB,
      JobState jobB,
      Resources removedB);
}
