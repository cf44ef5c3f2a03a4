package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.fairness.CapacityChecks;
import io.gantry.scheduler.fairness.FairShareDivider;
import io.gantry.scheduler.fairness.QueueAttributes;
import io.gantry.scheduler.fairness.QueueOrderRule;
import io.gantry.scheduler.fairness.QueueTree;
import io.gantry.scheduler.framework.AllocationListener;
import io.gantry.scheduler.framework.CapacityPolicy;
import io.gantry.scheduler.framework.FairShares;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.QueueOrder;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * KAI's proportion plugin: per-queue allocation and fair share (kai-reference §5.1–5.3), the queue
 * order (§5.7) and the capacity checks (§5.5). Queue allocation follows every statement operation.
 */
public final class ProportionPlugin
    implements SessionOpenHook, QueueOrder, CapacityPolicy, AllocationListener {
  public static final String NAME = "proportion";

  private final ProportionArgs args;
  private SessionView session;
  private QueueTree tree;
  private QueueOrderRule orderRule;
  private TasksToAllocate tasksToAllocate;

  /** What one leaf queue's tasks add up to at session open. */
  private static final class QueueSums {
    Resources allocatedPreemptible = Resources.ZERO;
    Resources allocatedNonPreemptible = Resources.ZERO;
    Resources request = Resources.ZERO;
  }

  /** A job's request as of one {@link JobState#version()}; looked up, never iterated. */
  private record JobRequest(long version, Resources request) {}

  private final IdentityHashMap<JobState, JobRequest> jobRequests = new IdentityHashMap<>();

  public ProportionPlugin(ProportionArgs args) {
    this.args = args;
  }

  @Override
  public String name() {
    return NAME;
  }

  public ProportionArgs args() {
    return args;
  }

  /** The session's queue tree with allocation and fair shares. */
  public QueueTree queues() {
    return tree;
  }

  @Override
  public void onSessionOpen(SessionView session) {
    this.session = session;
    this.tasksToAllocate = new TasksToAllocate(session.hooks());
    ResourceVector total = ResourceVector.ZERO;
    for (NodeInfo n : session.snapshot().nodes()) {
      if (n.ready()) {
        total = total.plus(ResourceVector.of(n.allocatable()));
      }
    }
    this.tree = new QueueTree(session.snapshot().queues(), total);
    this.orderRule = new QueueOrderRule(total);
    // summed per leaf first (exact sums, so the order does not matter), then added up the tree
    Map<String, QueueSums> sums = new LinkedHashMap<>();
    for (JobState job : session.jobs()) {
      String queue = job.info().queue();
      if (tree.find(queue).isEmpty()) {
        continue;
      }
      QueueSums q = sums.computeIfAbsent(queue, k -> new QueueSums());
      for (TaskState task : job.tasks()) {
        if (task.status().isAllocated() || task.status() == TaskStatus.PIPELINED) {
          Resources counted = counted(task, session.quotaGpus(task));
          if (job.info().preemptible()) {
            q.allocatedPreemptible = q.allocatedPreemptible.plus(counted);
          } else {
            q.allocatedNonPreemptible = q.allocatedNonPreemptible.plus(counted);
          }
          q.request = q.request.plus(counted);
        } else if (task.status() == TaskStatus.PENDING) {
          q.request = q.request.plus(counted(task, session.quotaGpus(task)));
        }
      }
    }
    sums.forEach(
        (queue, q) -> {
          tree.addAllocated(queue, q.allocatedPreemptible, false);
          tree.addAllocated(queue, q.allocatedNonPreemptible, true);
          tree.addRequest(queue, q.request);
        });
    tree.computeFairShares(new FairShareDivider(args.kValue()));
    QueueTree divided = tree;
    session
        .state()
        .write(FairShares.KEY, queue -> divided.find(queue).map(QueueAttributes::fairShares));
  }

  @Override
  public int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB) {
    return orderRule.compare(
        tree.get(queueA), jobRequest(jobA), tree.get(queueB), jobRequest(jobB));
  }

  @Override
  public Optional<CapacityExceeded> checkJob(JobState job, List<TaskState> tasks) {
    Resources request = Resources.ZERO;
    for (TaskState t : tasks) {
      request = request.plus(counted(t, session.limitCheckGpus(t)));
    }
    return CapacityChecks.check(
        tree.pathToRoot(job.info().queue()), request, !job.info().preemptible());
  }

  @Override
  public Optional<CapacityExceeded> checkTaskOnNode(
      TaskState task, NodeState node, GpuAmount gpus) {
    JobState job = task.job();
    return CapacityChecks.check(
        tree.pathToRoot(job.info().queue()), counted(task, gpus), !job.info().preemptible());
  }

  @Override
  public void onAllocate(TaskState task, GpuAmount gpus) {
    String queue = task.job().info().queue();
    if (tree.find(queue).isPresent()) {
      tree.addAllocated(queue, counted(task, gpus), !task.job().info().preemptible());
    }
  }

  @Override
  public void onDeallocate(TaskState task, GpuAmount gpus) {
    String queue = task.job().info().queue();
    if (tree.find(queue).isPresent()) {
      tree.removeAllocated(queue, counted(task, gpus), !task.job().info().preemptible());
    }
  }

  /**
   * What the job's next pass counts for in its queue; asked on every queue comparison, so cached
   * per job version (the baseline strategy recomputes it each time).
   */
  private Resources jobRequest(JobState job) {
    if (session.strategy() == SearchStrategy.BASELINE) {
      return computeJobRequest(job);
    }
    JobRequest cached = jobRequests.get(job);
    if (cached != null && cached.version() == job.version()) {
      return cached.request();
    }
    Resources request = computeJobRequest(job);
    jobRequests.put(job, new JobRequest(job.version(), request));
    return request;
  }

  private Resources computeJobRequest(JobState job) {
    Resources request = Resources.ZERO;
    for (TaskState t : tasksToAllocate.of(job)) {
      request = request.plus(counted(t, session.quotaGpus(t)));
    }
    return request;
  }

  /** What a task counts for in its queue: its CPU and memory, and {@code gpus}. */
  private static Resources counted(TaskState task, GpuAmount gpus) {
    Resources request = task.info().request();
    return Resources.of(request.cpuMillis(), request.memoryBytes(), gpus);
  }
}
