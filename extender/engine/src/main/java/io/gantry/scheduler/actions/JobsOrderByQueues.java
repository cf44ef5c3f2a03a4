package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * KAI's JobsOrderByQueues (kai-reference §4.5): a heap of queues per level mirroring the queue
 * tree, leaves holding their jobs in job order ({@link LeafJobQueue}). {@link #pop} descends from
 * the roots taking the best queue at each level and detaches that path, so the allocation that
 * follows cannot disturb any heap; {@link #finish} re-inserts the path with the queues' new state.
 * Each pop costs O(depth · log n).
 *
 * <p>An action's {@code queueDepthPerAction} bounds each leaf queue: its jobs are pushed in the
 * order given, and the jobs KAI's bounded heap would drop ({@link KaiBoundedJobHeap}) are not
 * considered at all this cycle. A job pushed back after a pass never exceeds the bound, as in KAI,
 * because it was popped from the same queue first.
 */
final class JobsOrderByQueues {
  private final PluginHooks hooks;
  private final boolean victims;
  private final Comparator<JobState> jobOrder;
  private final Map<String, QueueNode> nodes = new LinkedHashMap<>();
  private final PriorityQueue<QueueNode> roots;
  // the popped path, root first, until finish re-inserts it; one list reused by every pop
  private final List<QueueNode> detached = new ArrayList<>();

  private final class QueueNode {
    final String name;
    final QueueNode parent;
    final PriorityQueue<QueueNode> children =
        new PriorityQueue<>(JobsOrderByQueues.this::compareQueues);
    final LeafJobQueue<JobState> jobs;
    boolean leaf = true;
    Resources removed = Resources.ZERO;

    QueueNode(String name, QueueNode parent) {
      this.name = name;
      this.parent = parent;
      this.jobs = new LeafJobQueue<>(jobOrder);
    }

    boolean hasWork() {
      return leaf ? !jobs.isEmpty() : !children.isEmpty();
    }

    JobState bestJob() {
      return leaf ? jobs.peek() : children.peek().bestJob();
    }
  }

  /** {@code queues} with parents before children is not required; every parent must exist. */
  JobsOrderByQueues(PluginHooks hooks, List<QueueInfo> queues, List<JobState> jobs) {
    this(hooks, queues, jobs, false, hooks::compareJobs, OptionalInt.empty());
  }

  /**
   * An order in which each leaf queue holds at most {@code maxJobsPerQueue} of its jobs (an
   * action's {@code queueDepthPerAction}); empty: all of them.
   */
  JobsOrderByQueues(
      PluginHooks hooks, List<QueueInfo> queues, List<JobState> jobs, OptionalInt maxJobsPerQueue) {
    this(hooks, queues, jobs, false, hooks::compareJobs, maxJobsPerQueue);
  }

  /**
   * A victim queue (kai-reference §4.5): both orders reversed, so it pops the job that would be
   * scheduled last, and each queue's dominant share taken as if the victims already chosen from its
   * subtree were gone ({@link #finishVictim}). Jobs are ordered by the tasks {@code left} accepts
   * of each: all of them at first, those not taken yet once the job is pushed back after a batch,
   * as KAI pushes back a clone holding them (kai-reference §4.11).
   */
  static JobsOrderByQueues victims(
      PluginHooks hooks,
      List<QueueInfo> queues,
      List<JobState> jobs,
      Function<JobState, Predicate<TaskState>> left) {
    return new JobsOrderByQueues(
        hooks,
        queues,
        jobs,
        true,
        (a, b) -> hooks.compareVictimJobs(b, left.apply(b), a, left.apply(a)),
        OptionalInt.empty());
  }

  private JobsOrderByQueues(
      PluginHooks hooks,
      List<QueueInfo> queues,
      List<JobState> jobs,
      boolean victims,
      Comparator<JobState> jobOrder,
      OptionalInt maxJobsPerQueue) {
    this.hooks = hooks;
    this.victims = victims;
    this.jobOrder = jobOrder;
    this.roots = new PriorityQueue<>(this::compareQueues);
    Map<String, QueueInfo> infos = new LinkedHashMap<>();
    for (QueueInfo q : queues) {
      infos.put(q.name(), q);
    }
    for (QueueInfo q : queues) {
      node(q.name(), infos);
    }
    Map<String, List<JobState>> byQueue = new LinkedHashMap<>();
    for (JobState job : jobs) {
      byQueue.computeIfAbsent(job.info().queue(), q -> new ArrayList<>()).add(job);
    }
    for (Map.Entry<String, List<JobState>> e : byQueue.entrySet()) {
      QueueNode leaf = nodes.get(e.getKey());
      leaf.jobs.addFirst(
          maxJobsPerQueue.isPresent()
              ? KaiBoundedJobHeap.survivors(
                  e.getValue(), leaf.jobs.comparator(), maxJobsPerQueue.getAsInt())
              : e.getValue());
    }
    List<QueueNode> all = new ArrayList<>(nodes.values());
    // leaves first so a parent's heap compares children that already hold their jobs
    all.sort((a, b) -> Integer.compare(depth(b), depth(a)));
    for (QueueNode n : all) {
      if (n.hasWork()) {
        heapOf(n).add(n);
      }
    }
  }

  /** The next job to try, or null when none is left. Call {@link #finish} before the next pop. */
  JobState pop() {
    if (roots.isEmpty()) {
      return null;
    }
    QueueNode n = roots.poll();
    detached.add(n);
    while (!n.leaf) {
      n = n.children.poll();
      detached.add(n);
    }
    return n.jobs.poll();
  }

  /** Re-inserts the popped path; {@code pushBack} returns the job to its queue (elastic growth). */
  void finish(JobState job, boolean pushBack) {
    if (detached.isEmpty()) {
      return;
    }
    QueueNode leaf = detached.get(detached.size() - 1);
    if (pushBack) {
      leaf.jobs.add(job);
    }
    for (int i = detached.size() - 1; i >= 0; i--) {
      QueueNode n = detached.get(i);
      if (n.hasWork()) {
        heapOf(n).add(n);
      }
    }
    detached.clear();
  }

  /**
   * Re-inserts the popped path of a victim queue after {@code taken} (GPUs, CPU, memory) of its job
   * became victims; {@code pushBack} returns the job when it has tasks left to take.
   */
  void finishVictim(JobState job, Resources taken, boolean pushBack) {
    for (QueueNode n : detached) {
      n.removed = n.removed.plus(taken);
    }
    finish(job, pushBack);
  }

  boolean isEmpty() {
    return roots.isEmpty() && detached.isEmpty();
  }

  private int compareQueues(QueueNode a, QueueNode b) {
    if (victims) {
      return Integer.compare(
          0,
          hooks.compareVictimQueues(
              a.name, a.bestJob(), a.removed, b.name, b.bestJob(), b.removed));
    }
    return hooks.compareQueues(a.name, a.bestJob(), b.name, b.bestJob());
  }

  private PriorityQueue<QueueNode> heapOf(QueueNode n) {
    return n.parent == null ? roots : n.parent.children;
  }

  private QueueNode node(String name, Map<String, QueueInfo> infos) {
    QueueNode existing = nodes.get(name);
    if (existing != null) {
      return existing;
    }
    QueueInfo info = infos.get(name);
    QueueNode parent = info.parent().map(p -> node(p, infos)).orElse(null);
    QueueNode created = new QueueNode(name, parent);
    if (parent != null) {
      parent.leaf = false;
    }
    nodes.put(name, created);
    return created;
  }

  private static int depth(QueueNode n) {
    int d = 0;
    for (QueueNode p = n.parent; p != null; p = p.parent) {
      d++;
    }
    return d;
  }
}
