package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The order in which the next allocate would try the pending, ready jobs (KAI's {@code
 * reflectjoborder}): {@code global} across queues, and within each leaf queue the same jobs in the
 * same relative order.
 */
public record PendingJobOrder(ImmutableList<OrderedJob> global) {
  public PendingJobOrder {
    requireNonNull(global, "global is null");
  }

  /** Each leaf queue's jobs in allocation order, queues by name. */
  public ImmutableSortedMap<String, ImmutableList<OrderedJob>> byQueue() {
    Map<String, List<OrderedJob>> out = new TreeMap<>();
    for (OrderedJob j : global) {
      out.computeIfAbsent(j.queue(), q -> new ArrayList<>()).add(j);
    }
    ImmutableSortedMap.Builder<String, ImmutableList<OrderedJob>> b =
        ImmutableSortedMap.naturalOrder();
    out.forEach((q, jobs) -> b.put(q, ImmutableList.copyOf(jobs)));
    return b.build();
  }

  /** The job's 1-based place in the global order; empty when it is not waiting to be allocated. */
  public OptionalInt globalPosition(String jobId) {
    return position(global, jobId);
  }

  /** The job's 1-based place among the jobs of its queue. */
  public OptionalInt queuePosition(String queue, String jobId) {
    return position(byQueue().getOrDefault(queue, ImmutableList.of()), jobId);
  }

  private static OptionalInt position(List<OrderedJob> jobs, String jobId) {
    for (int i = 0; i < jobs.size(); i++) {
      if (jobs.get(i).jobId().equals(jobId)) {
        return OptionalInt.of(i + 1);
      }
    }
    return OptionalInt.empty();
  }
}
