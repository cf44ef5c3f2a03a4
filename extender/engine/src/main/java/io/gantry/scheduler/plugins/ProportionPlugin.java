package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.result.ResourceAmounts;
import io.gantry.scheduler.fairness.CapacityChecks;
import io.gantry.scheduler.fairness.FairShareDivider;
import io.gantry.scheduler.fairness.QueueOrderRule;
import io.gantry.scheduler.fairness.QueueTree;
import io.gantry.scheduler.framework.AllocationListener;
import io.gantry.scheduler.framework.CapacityPolicy;
import io.gantry.scheduler.framework.FairShareReport;
import io.gantry.scheduler.framework.JobFitError;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.QueueOrder;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.TaskStatus;
import java.util.List;
import java.util.Optional;

/**
 * KAI's proportion plugin: per-queue allocation and fair share (kai-reference §5.1–5.3), the queue
 * order (§5.7) and the capacity checks (§5.5). Queue allocation follows every statement operation.
 */
public final class ProportionPlugin
    implements SessionOpenHook, QueueOrder, CapacityPolicy, AllocationListener, FairShareReport {
  public static final String NAME = "proportion";

  private final ProportionArgs args;
  private Session session;
  private QueueTree tree;
  private QueueOrderRule orderRule;
  private TasksToAllocate tasksToAllocate;

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
  public void onSessionOpen(Session session) {
    this.session = session;
    this.tasksToAllocate = new TasksToAllocate(session.hooks());
    double[] total = new double[ResourceKind.values().length];
    for (NodeInfo n : session.snapshot().nodes()) {
      if (n.ready()) {
        total[ResourceKind.GPU.ordinal()] += n.allocatable().gpus();
        total[ResourceKind.CPU.ordinal()] += n.allocatable().cpuMillis();
        total[ResourceKind.MEMORY.ordinal()] += n.allocatable().memoryBytes();
      }
    }
    this.tree = new QueueTree(session.snapshot().queues(), total);
    this.orderRule = new QueueOrderRule(total);
    for (JobState job : session.jobs()) {
      if (tree.find(job.info().queue()).isEmpty()) {
        continue;
      }
      for (TaskState task : job.tasks()) {
        if (task.status().isAllocated() || task.status() == TaskStatus.PIPELINED) {
          double[] v = vector(task, session.quotaGpus(task));
          tree.addAllocated(job.info().queue(), v, !job.info().preemptible());
          tree.addRequest(job.info().queue(), v);
        } else if (task.status() == TaskStatus.PENDING) {
          tree.addRequest(job.info().queue(), vector(task, session.quotaGpus(task)));
        }
      }
    }
    tree.computeFairShares(new FairShareDivider(args.kValue()));
  }

  @Override
  public Optional<ResourceAmounts> fairShare(String queue) {
    return tree.find(queue)
        .map(
            a ->
                new ResourceAmounts(
                    a.fairShare(ResourceKind.GPU),
                    a.fairShare(ResourceKind.CPU),
                    a.fairShare(ResourceKind.MEMORY)));
  }

  @Override
  public int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB) {
    return orderRule.compare(
        tree.get(queueA), jobRequest(jobA), tree.get(queueB), jobRequest(jobB));
  }

  @Override
  public Optional<JobFitError> checkJob(JobState job, List<TaskState> tasks) {
    double[] request = new double[ResourceKind.values().length];
    for (TaskState t : tasks) {
      add(request, vector(t, session.limitCheckGpus(t)));
    }
    return CapacityChecks.check(
        tree.pathToRoot(job.info().queue()), request, !job.info().preemptible());
  }

  @Override
  public Optional<JobFitError> checkTaskOnNode(TaskState task, NodeState node, double gpus) {
    JobState job = task.job();
    return CapacityChecks.check(
        tree.pathToRoot(job.info().queue()), vector(task, gpus), !job.info().preemptible());
  }

  @Override
  public void onAllocate(TaskState task, double gpus) {
    account(task, gpus, 1);
  }

  @Override
  public void onDeallocate(TaskState task, double gpus) {
    account(task, gpus, -1);
  }

  private void account(TaskState task, double gpus, int sign) {
    String queue = task.job().info().queue();
    if (tree.find(queue).isEmpty()) {
      return;
    }
    double[] v = vector(task, gpus);
    for (int i = 0; i < v.length; i++) {
      v[i] *= sign;
    }
    tree.addAllocated(queue, v, !task.job().info().preemptible());
  }

  private double[] jobRequest(JobState job) {
    double[] request = new double[ResourceKind.values().length];
    for (TaskState t : tasksToAllocate.of(job)) {
      add(request, vector(t, session.quotaGpus(t)));
    }
    return request;
  }

  private static double[] vector(TaskState task, double gpus) {
    double[] v = new double[ResourceKind.values().length];
    v[ResourceKind.GPU.ordinal()] = gpus;
    v[ResourceKind.CPU.ordinal()] = task.info().request().cpuMillis();
    v[ResourceKind.MEMORY.ordinal()] = task.info().request().memoryBytes();
    return v;
  }

  private static void add(double[] into, double[] v) {
    for (int i = 0; i < into.length; i++) {
      into[i] += v[i];
    }
  }
}
