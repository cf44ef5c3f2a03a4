package io.gantry.scheduler.cycle;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.actions.AllocationOrder;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.explain.EvictionOption;
import io.gantry.scheduler.api.result.explain.GangFit;
import io.gantry.scheduler.api.result.explain.JobExplanation;
import io.gantry.scheduler.api.result.explain.OrderedJob;
import io.gantry.scheduler.api.result.explain.PendingJobOrder;
import io.gantry.scheduler.api.result.explain.QueueStanding;
import io.gantry.scheduler.api.result.explain.Victim;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.GangIncomplete;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Answers "why is my job pending, and where is it in line" on a snapshot, through the same cycle
 * the scheduler runs: the job order the next allocate would use, the queues' standing, and one
 * job's explanation. The eviction actions' answers are hypothetical: each runs right after allocate
 * on the snapshot ({@code [allocate, reclaim]}, {@code [allocate, preempt]}), and nothing is
 * applied. Built by {@link SchedulerWiring#explainer}; every call builds its own sessions.
 */
public final class Explainer {
  /** How many waiting jobs a queue's standing names. */
  public static final int FIRST_PENDING = 5;

  /** How many of the jobs ahead in its queue an explanation names. */
  public static final int AHEAD_NAMED = 5;

  private final SchedulingCycle configured;
  private final ImmutableMap<String, SchedulingCycle> evictions;

  Explainer(SchedulingCycle configured, ImmutableMap<String, SchedulingCycle> evictions) {
    this.configured = requireNonNull(configured, "configured is null");
    this.evictions = requireNonNull(evictions, "evictions is null");
  }

  /** The order in which the next allocate would try the snapshot's waiting jobs. */
  public PendingJobOrder jobOrder(ClusterSnapshot snapshot) {
    return configured.inspectAtOpen(snapshot, Explainer::order);
  }

  /**
   * Every queue of the snapshot, parents before their children: quota, limit, the fair share the
   * session divides, what it holds now, its subtree's waiting jobs and the first of them in order.
   */
  public ImmutableList<QueueStanding> queues(ClusterSnapshot snapshot) {
    return configured.inspectAtOpen(
        snapshot, session -> QueueStandings.of(session, order(session), QueueUsage.of(session)));
  }

  /**
   * Why job {@code jobId} ({@code namespace/name}) runs or waits after one configured cycle on
   * {@code snapshot}; empty when the snapshot has no such job.
   */
  public Optional<JobExplanation> explain(ClusterSnapshot snapshot, String jobId) {
    Optional<JobInfo> info = snapshot.jobs().stream().filter(j -> j.id().equals(jobId)).findFirst();
    if (info.isEmpty()) {
      return Optional.empty();
    }
    PendingJobOrder order = jobOrder(snapshot);
    boolean waiting = order.globalPosition(jobId).isPresent();
    ImmutableList<EvictionOption> options =
        waiting ? evictionOptions(snapshot, jobId) : ImmutableList.of();
    return Optional.of(
        configured.inspectAfterActions(
            snapshot, session -> explanation(session, info.get(), order, options)));
  }

  /**
   * The job a user names: {@code namespace/name} of a job, a job's name, or {@code pod/NAME} (a pod
   * of the job), in {@code namespace} when given. Empty when none matches.
   *
   * @throws IllegalArgumentException when the name matches jobs in several namespaces
   */
  public static Optional<String> resolve(
      ClusterSnapshot snapshot, Optional<String> namespace, String name) {
    List<String> found = new ArrayList<>();
    String pod = name.startsWith("pod/") ? name.substring(4) : null;
    String job =
        name.startsWith("podgroup/")
            ? name.substring(9)
            : name.startsWith("pg/") ? name.substring(3) : name;
    for (JobInfo j : snapshot.jobs()) {
      if (namespace.isPresent() && !namespace.get().equals(j.namespace())) {
        continue;
      }
      boolean match =
          pod == null
              ? j.id().equals(job) || j.name().equals(job)
              : j.tasks().stream().map(TaskInfo::podName).anyMatch(pod::equals);
      if (match) {
        found.add(j.id());
      }
    }
    if (found.size() > 1) {
      throw new IllegalArgumentException(
          name + " matches " + String.join(", ", found) + "; name the namespace");
    }
    return found.stream().findFirst();
  }

  private static PendingJobOrder order(Session session) {
    ImmutableList.Builder<OrderedJob> out = ImmutableList.builder();
    for (JobState job : AllocationOrder.of(session)) {
      out.add(new OrderedJob(job.id(), job.info().queue(), job.info().priority()));
    }
    return new PendingJobOrder(out.build());
  }

  private ImmutableList<EvictionOption> evictionOptions(ClusterSnapshot snapshot, String jobId) {
    Map<String, String> jobOfTask = new TreeMap<>();
    for (JobInfo j : snapshot.jobs()) {
      for (TaskInfo t : j.tasks()) {
        jobOfTask.put(t.id(), j.id());
      }
    }
    ImmutableList.Builder<EvictionOption> out = ImmutableList.builder();
    evictions.forEach(
        (action, cycle) -> {
          CycleResult result = cycle.run(snapshot);
          boolean placed = false;
          ImmutableList.Builder<Victim> victims = ImmutableList.builder();
          for (Decision d : result.decisions()) {
            if (d instanceof EvictDecision e) {
              if (e.cause().preemptorJobId().equals(Optional.of(jobId))) {
                victims.add(
                    new Victim(jobOfTask.getOrDefault(e.taskId(), ""), e.taskId(), e.nodeName()));
              }
            } else if (jobId.equals(jobOfTask.get(d.taskId()))) {
              placed = true;
            }
          }
          out.add(new EvictionOption(action, placed, victims.build()));
        });
    return out.build();
  }

  private static JobExplanation explanation(
      Session session, JobInfo info, PendingJobOrder order, ImmutableList<EvictionOption> options) {
    JobState job = session.job(info.id());
    ImmutableList<QueueOutcome> outcomes = QueueUsage.of(session);
    ImmutableList<QueueStanding> all = QueueStandings.of(session, order, outcomes);
    ImmutableList<QueueStanding> path = path(all, info.queue());
    List<OrderedJob> inQueue = order.byQueue().getOrDefault(info.queue(), ImmutableList.of());
    OptionalInt queuePosition = order.queuePosition(info.queue(), info.id());
    ImmutableList.Builder<String> ahead = ImmutableList.builder();
    int aheadCount = queuePosition.isPresent() ? queuePosition.getAsInt() - 1 : 0;
    for (int i = 0; i < Math.min(aheadCount, AHEAD_NAMED); i++) {
      ahead.add(inQueue.get(i).jobId());
    }
    List<JobFitReason> errors = job.fitErrors();
    Optional<TaskState> waitingTask =
        job.tasks().stream().filter(t -> t.status() == TaskStatus.PENDING).findFirst();
    return new JobExplanation(
        info.id(),
        info.queue(),
        status(job),
        order.globalPosition(info.id()),
        order.global().size(),
        queuePosition,
        inQueue.size(),
        ahead.build(),
        path,
        job.hasPendingTasks()
            ? HoldBacks.of(errors, path, waitingRequest(job), capacity(session))
            : Optional.empty(),
        job.hasPendingTasks() ? FitMessages.jobMessage(errors) : Optional.empty(),
        job.hasPendingTasks() ? NodeRooms.reasons(errors) : ImmutableList.of(),
        waitingTask.isPresent()
            ? NodeRooms.closest(session, waitingTask.get(), errors)
            : ImmutableList.of(),
        options,
        gang(job));
  }

  /** The GPUs, CPU and memory the job's pending tasks ask for. */
  private static Resources waitingRequest(JobState job) {
    Resources sum = Resources.ZERO;
    for (TaskState t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING) {
        sum = sum.plus(t.info().request());
      }
    }
    return sum;
  }

  /** The GPUs, CPU and memory of every node of the session. */
  private static ResourceVector capacity(Session session) {
    ResourceVector sum = ResourceVector.ZERO;
    for (NodeState n : session.nodes()) {
      sum = sum.plus(ResourceVector.of(n.info().allocatable()));
    }
    return sum;
  }

  private static ImmutableList<QueueStanding> path(ImmutableList<QueueStanding> all, String leaf) {
    Map<String, QueueStanding> byName = new TreeMap<>();
    all.forEach(q -> byName.put(q.name(), q));
    ImmutableList.Builder<QueueStanding> out = ImmutableList.builder();
    Optional<QueueStanding> q = Optional.ofNullable(byName.get(leaf));
    while (q.isPresent()) {
      out.add(q.get());
      q = q.get().parent().map(byName::get);
    }
    return out.build();
  }

  /** Each task status the job's tasks have, with how many, in the order of {@link TaskStatus}. */
  private static String status(JobState job) {
    Map<TaskStatus, Long> counts = new TreeMap<>();
    for (TaskState t : job.tasks()) {
      // a committed allocation leaves the cycle as a bind, as in the cycle's result
      TaskStatus s = t.status() == TaskStatus.ALLOCATED ? TaskStatus.BINDING : t.status();
      counts.merge(s, 1L, Long::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((s, n) -> parts.add(n + " " + s.displayName()));
    return String.join(", ", parts);
  }

  private static GangFit gang(JobState job) {
    long minMember = job.podSets().stream().mapToLong(PodSet::minMember).sum();
    long fit = job.count(TaskStatus::isAllocated);
    for (JobFitReason r : job.fitErrors()) {
      if (r instanceof GangIncomplete g) {
        fit = Math.max(fit, g.found());
      }
    }
    return new GangFit(minMember, job.tasks().size(), fit);
  }
}
