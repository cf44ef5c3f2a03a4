package io.gantry.cli.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * CPU time of the threads whose names start with a prefix (the in-process fake API server's),
 * summed over every such thread seen: sampled every 100 ms, since its pooled threads come and go,
 * and read once more at {@link #stop}. A thread that lived less than one sample between two samples
 * is missed, so the figure is a floor.
 */
final class ThreadCpu implements AutoCloseable {
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final String prefix;
  private final Map<Long, Long> cpuNanosByThread = new TreeMap<>();
  private final Map<Long, Long> cpuNanosAtStart;
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "bench-cpu-sampler");
            t.setDaemon(true);
            return t;
          });

  ThreadCpu(String prefix) {
    this.prefix = prefix;
    sample();
    this.cpuNanosAtStart = new TreeMap<>(cpuNanosByThread);
    var unused = sampler.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
  }

  private synchronized void sample() {
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null || !info.getThreadName().startsWith(prefix)) {
        continue;
      }
      long cpu = threads.getThreadCpuTime(info.getThreadId());
      if (cpu >= 0) {
        cpuNanosByThread.merge(info.getThreadId(), cpu, Math::max);
      }
    }
  }

  /** Stops sampling; the CPU seconds of the matching threads since this was made. */
  synchronized double stop() {
    sampler.shutdownNow();
    sample();
    long nanos = 0;
    for (Map.Entry<Long, Long> e : cpuNanosByThread.entrySet()) {
      nanos += e.getValue() - cpuNanosAtStart.getOrDefault(e.getKey(), 0L);
    }
    return nanos / 1e9;
  }

  @Override
  public void close() {
    sampler.shutdownNow();
  }
}
