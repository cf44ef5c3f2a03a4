package io.gantry.scheduler.bench;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.cycle.CycleListener;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.TreeMap;

/**
 * Times the phases of one cycle from the listener's calls: opening the session, each action, and
 * what follows the last action (building the result); and the CPU time the cycle's thread spent in
 * each action, which other processes on a shared machine disturb far less than the wall time. Not
 * thread-safe; one per cycle, called on the cycle's thread.
 */
final class CycleTimer implements CycleListener {
  /** One cycle's phases in nanoseconds; {@code actions} by KAI's action name. */
  record Timing(
      long totalNanos,
      long sessionOpenNanos,
      ImmutableSortedMap<String, Long> actionNanos,
      ImmutableSortedMap<String, Long> actionCpuNanos,
      long resultNanos) {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long start;
  private long sessionOpened;
  private long actionStart;
  private long actionCpuStart;
  private long lastActionEnd;
  private final TreeMap<String, Long> actions = new TreeMap<>();
  private final TreeMap<String, Long> actionsCpu = new TreeMap<>();

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
  }

  @Override
  public void actionFinished(String action) {
    lastActionEnd = System.nanoTime();
    actions.merge(action, lastActionEnd - actionStart, Long::sum);
    actionsCpu.merge(action, THREADS.getCurrentThreadCpuTime() - actionCpuStart, Long::sum);
  }

  /** The timing of the cycle, which ended now. */
  Timing finish() {
    long end = System.nanoTime();
    return new Timing(
        end - start,
        sessionOpened - start,
        ImmutableSortedMap.copyOf(actions),
        ImmutableSortedMap.copyOf(actionsCpu),
        end - lastActionEnd);
  }
}
