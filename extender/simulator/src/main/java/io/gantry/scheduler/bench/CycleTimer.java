package io.gantry.scheduler.bench;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.cycle.CycleListener;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Times the phases of one cycle from the listener's calls: opening the session, each action, and
 * what follows the last action (building the result); and the CPU time the cycle's thread spent in
 * each action, which other processes on a shared machine disturb far less than the wall time; and
 * the bytes the cycle's thread allocated in each action, which do not depend on the load at all.
 * Not thread-safe; one per cycle, called on the cycle's thread.
 */
final class CycleTimer implements CycleListener {
  /**
   * One cycle's phases in nanoseconds; {@code actions} by KAI's action name. {@code
   * actionAllocatedBytes} is empty when this JVM cannot count a thread's allocations.
   */
  record Timing(
      long totalNanos,
      long sessionOpenNanos,
      ImmutableSortedMap<String, Long> actionNanos,
      ImmutableSortedMap<String, Long> actionCpuNanos,
      Optional<ImmutableSortedMap<String, Long>> actionAllocatedBytes,
      long resultNanos) {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** HotSpot's extension of the bean, when it counts allocations; empty on other JVMs. */
  private static final Optional<com.sun.management.ThreadMXBean> ALLOCATIONS = allocationCounter();

  private final long start;
  private long sessionOpened;
  private long actionStart;
  private long actionCpuStart;
  private long actionAllocatedStart;
  private long lastActionEnd;
  private final TreeMap<String, Long> actions = new TreeMap<>();
  private final TreeMap<String, Long> actionsCpu = new TreeMap<>();
  private final TreeMap<String, Long> actionsAllocated = new TreeMap<>();

  CycleTimer() {
    this.start = System.nanoTime();
  }

  @Override
  public void sessionOpened() {
    sessionOpened = System.nanoTime();
    lastActionEnd = sessionOpened;
  }

  @Override
  public void actionStarted(String action) {
    actionStart = System.nanoTime();
    actionCpuStart = THREADS.getCurrentThreadCpuTime();
    actionAllocatedStart = allocatedBytes();
  }

  @Override
  public void actionFinished(String action) {
    lastActionEnd = System.nanoTime();
    actions.merge(action, lastActionEnd - actionStart, Long::sum);
    actionsCpu.merge(action, THREADS.getCurrentThreadCpuTime() - actionCpuStart, Long::sum);
    actionsAllocated.merge(action, allocatedBytes() - actionAllocatedStart, Long::sum);
  }

  /** The timing of the cycle, which ended now. */
  Timing finish() {
    long end = System.nanoTime();
    return new Timing(
        end - start,
        sessionOpened - start,
        ImmutableSortedMap.copyOf(actions),
        ImmutableSortedMap.copyOf(actionsCpu),
        ALLOCATIONS.map(counter -> ImmutableSortedMap.copyOf(actionsAllocated)),
        end - lastActionEnd);
  }

  /** Bytes the current thread has allocated so far; 0 when not counted (the map is then empty). */
  private static long allocatedBytes() {
    return ALLOCATIONS
        .map(com.sun.management.ThreadMXBean::getCurrentThreadAllocatedBytes)
        .orElse(0L);
  }

  private static Optional<com.sun.management.ThreadMXBean> allocationCounter() {
    if (THREADS instanceof com.sun.management.ThreadMXBean counter
        && counter.isThreadAllocatedMemorySupported()) {
      counter.setThreadAllocatedMemoryEnabled(true);
      return Optional.of(counter);
    }
    return Optional.empty();
  }
}
