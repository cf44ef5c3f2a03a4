package io.gantry.scheduler.actions;

import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionObserver;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.AllocateAttempts;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.JobNotReady;
import io.gantry.scheduler.framework.fit.QueueDoesNotExist;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * KAI's allocate action (kai-reference §4.6): jobs in queue order, each pass in its own statement,
 * committed when the pass placed every task and discarded otherwise; a job that grew and still has
 * pending tasks goes back into the order. A job that had no allocated task and now runs gets its
 * last-start timestamp. No evictions.
 */
public final class AllocateAction implements Action {
  private final OptionalInt maxJobsPerQueue;

  /** Allocate considering every job of every queue. */
  public AllocateAction() {
    this.maxJobsPerQueue = OptionalInt.empty();
  }

  /** Allocate considering at most the context's {@code queueDepthPerAction} jobs per queue. */
  public AllocateAction(ActionContext context) {
    this.maxJobsPerQueue = context.queueDepth(ActionType.ALLOCATE);
  }

  @Override
  public ActionType type() {
    return ActionType.ALLOCATE;
  }

  @Override
  public void execute(Session session) {
    JobsOrderByQueues order =
        new JobsOrderByQueues(
            session.hooks(), session.snapshot().queues(), candidates(session), maxJobsPerQueue);
    JobAllocator allocator = new JobAllocator(session);
    TasksToAllocate tasksToAllocate = new TasksToAllocate(session.hooks());
    ActionObserver observer = ActionObserver.of(session);
    String name = type().actionName();
    JobState job;
    Optional<AllocateAttempts> attempts = session.state().read(AllocateAttempts.KEY);
    while ((job = order.pop()) != null) {
      if (attempts.isPresent()) {
        attempts.get().tried(job);
      }
      boolean pushBack = false;
      boolean hadAllocated = job.count(TaskStatus::isAllocated) > 0;
      observer.jobAttempted(name, job.id());
      try (Statement statement = session.statement()) {
        if (allocator.allocate(job, statement)) {
          List<Decision> decisions = statement.commit();
          CommitEvents.record(session, decisions);
          observer.jobPlaced(name, job.id());
          if (!hadAllocated && job.count(TaskStatus::isAllocated) > 0) {
            session.markStarted(job);
          }
          pushBack = !tasksToAllocate.of(job).isEmpty();
        }
      }
      order.finish(job, pushBack);
    }
  }

  /**
   * Pending, ready jobs of existing leaf queues; the others get their fit error or event. {@link
   * AllocationOrder} orders the same jobs.
   */
  static List<JobState> candidates(Session session) {
    Map<String, QueueInfo> queues =
        session.snapshot().queues().stream()
            .collect(Collectors.toMap(QueueInfo::name, Function.identity()));
    Set<String> parents = new TreeSet<>();
    session.snapshot().queues().forEach(q -> q.parent().ifPresent(parents::add));
    List<JobState> out = new ArrayList<>();
    for (JobState job : session.jobs()) {
      if (!job.hasPendingTasks()) {
        continue;
      }
      String queue = job.info().queue();
      if (!queues.containsKey(queue) || parents.contains(queue)) {
        QueueHierarchy.Problem problem =
            session
                .snapshot()
                .queueHierarchy()
                .problem(queue)
                .orElseGet(() -> new QueueHierarchy.Missing(queue));
        session.recordJobFitError(job, new QueueDoesNotExist(queue, problem));
        continue;
      }
      if (!ready(session, job)) {
        continue;
      }
      out.add(job);
    }
    return out;
  }

  /**
   * A PodSet is ready when its alive, non-gated pods reach minMember, a SubGroupSet when enough of
   * its children are ready (kai-reference §4.4); an unready job reports its first unready PodSet.
   */
  private static boolean ready(Session session, JobState job) {
    if (ready(job, job.info().root())) {
      return true;
    }
    for (PodSet p : job.podSets()) {
      if (!ready(job, p)) {
        long alive = job.count(p, TaskStatus::isAlive);
        long gated = job.count(p, s -> s == TaskStatus.GATED);
        JobNotReady notReady = new JobNotReady(p.minMember(), alive, gated);
        session.recordEvent(job.id(), "NotReady", FitMessages.sentence(notReady));
        session.recordJobFitError(job, notReady);
        return false;
      }
    }
    throw new IllegalStateException("job " + job.id() + " is not ready but every PodSet is");
  }

  private static boolean ready(JobState job, SubGroupNode node) {
    if (node instanceof PodSet p) {
      long alive = job.count(p, TaskStatus::isAlive);
      long gated = job.count(p, s -> s == TaskStatus.GATED);
      return alive - gated >= p.minMember();
    }
    SubGroupSet set = (SubGroupSet) node;
    long ready = 0;
    for (SubGroupNode c : set.children()) {
      if (ready(job, c)) {
        ready++;
      }
    }
    return ready >= set.required();
  }
}
