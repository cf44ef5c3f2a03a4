package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.wire.RequestPod;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans pods with the engine's one cycle API: the cluster now, with outstanding reservations as
 * pods binding on their nodes, goes through {@link SchedulingCycle#run}; every PodGroup the cycle
 * decides to bind gets its members' nodes reserved together ({@link Reservation}, one {@link
 * GangBarrier} per PodGroup), so a gang is planned whole and its capacity is not offered to anyone
 * else until it binds or the reservation expires. With fair-share waiting the whole cluster's
 * pending work is planned together, in the engine's queue order; without, only the asking pod's
 * PodGroup.
 *
 * <p>Planning is serialized (one cycle at a time); a pod with a reservation is answered without a
 * cycle.
 */
final class GangPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(GangPlanner.class);

  private final ExtenderCluster cluster;
  private final SchedulingCycle cycle;
  private final ReservationBook book;
  private final ExtenderSettings settings;
  private final ExtenderMetrics metrics;
  private final Clock clock;
  private volatile LastPlan last;
  private volatile PodIndex podIndex;

  /**
   * The last cycle's answer for the pods it left pending, reused for {@link #PLAN_REUSE}: a pod
   * that cannot be placed is asked about again at kube-scheduler's pace (every filter, every
   * retry), and one cycle a second answers them all.
   */
  private record LastPlan(
      Instant at,
      ImmutableMap<String, TaskInfo> pendingByPod,
      ImmutableMap<String, JobInfo> jobs,
      CycleResult result) {}

  /** How long a plan's rejections stand before a pod asking again gets a fresh cycle. */
  static final Duration PLAN_REUSE = Duration.ofSeconds(1);

  GangPlanner(
      ExtenderCluster cluster,
      SchedulingCycle cycle,
      ReservationBook book,
      ExtenderSettings settings,
      ExtenderMetrics metrics,
      Clock clock) {
    this.cluster = requireNonNull(cluster, "cluster is null");
    this.cycle = requireNonNull(cycle, "cycle is null");
    this.book = requireNonNull(book, "book is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The pod's reservation if it has one, else a fresh plan. */
  PlanOutcome plan(String podKey) {
    return plan(podKey, Optional.empty());
  }

  /**
   * {@link #plan(String)} for a request's pod: one in no PodGroup yet that the cluster {@link
   * ExtenderCluster#schedules} is grouped first ({@link ExtenderCluster#group}).
   */
  PlanOutcome plan(RequestPod pod) {
    return plan(pod.key(), Optional.of(pod));
  }

  private PlanOutcome plan(String podKey, Optional<RequestPod> request) {
    Optional<PlanOutcome> known = known(podKey, request);
    return known.isPresent() ? known.get() : planLocked(podKey, request);
  }

  /**
   * What {@link #plan(RequestPod)} answers when that needs no planning cycle: the pod's
   * reservation, the last cycle's rejection while it stands, or why Gantry does not plan the pod.
   * Empty when only a cycle (or grouping the pod) can answer. Takes no lock and builds no snapshot,
   * so a network thread may call it.
   */
  Optional<PlanOutcome> known(RequestPod pod) {
    return known(pod.key(), Optional.of(pod));
  }

  private Optional<PlanOutcome> known(String podKey, Optional<RequestPod> request) {
    Instant now = clock.instant();
    Optional<Reservation> r = book.live(podKey, now);
    if (r.isPresent()) {
      return Optional.of(new PlanOutcome.Reserved(r.get()));
    }
    LastPlan p = last;
    if (p != null && now.isBefore(p.at().plus(PLAN_REUSE))) {
      TaskInfo task = p.pendingByPod().get(podKey);
      if (task != null) {
        return Optional.of(rejected(p.jobs().get(task.jobId()), task, p.result()));
      }
    }
    Optional<TaskStatus> status = cluster.candidateStatus(podKey);
    if (status.isEmpty() && request.filter(cluster::schedules).isPresent()) {
      // grouping it takes the planning lock
      return Optional.empty();
    }
    return notManaged(podKey, status);
  }

  /**
   * A fresh plan, also for a pod with a reservation (preemption asks what evictions would do). A
   * pod that is not a pending pod of a Gantry PodGroup is answered from the cluster's {@link
   * ExtenderCluster#candidateStatus} without a snapshot and without taking the planning lock:
   * kube-scheduler sends every pod it schedules, most of them not Gantry's, and they must not wait
   * behind a planning cycle. The others are planned on the one snapshot taken under the lock.
   */
  PlanOutcome planNow(String podKey) {
    Optional<PlanOutcome> notMine = notManaged(podKey, cluster.candidateStatus(podKey));
    return notMine.isPresent() ? notMine.get() : planLocked(podKey, Optional.empty());
  }

  /**
   * Gantry's pod that the snapshot left out, which it will not place as written: no node passes,
   * and the bind is refused.
   */
  private Optional<PlanOutcome> leftOut(Optional<PodIndex.Member> candidate, String podKey) {
    if (candidate.isPresent()) {
      return Optional.empty();
    }
    return cluster
        .leftOut(podKey)
        .map(why -> new PlanOutcome.Rejected(why, ImmutableSet.of(), ImmutableSet.of()));
  }

  private synchronized PlanOutcome planLocked(String podKey, Optional<RequestPod> request) {
    Instant now = clock.instant();
    Optional<Reservation> existing = book.live(podKey, now);
    if (existing.isPresent()) {
      return new PlanOutcome.Reserved(existing.get());
    }
    expire(now);
    ClusterSnapshot live = cluster.snapshot();
    Optional<PodIndex.Member> candidate = index(live).member(podKey);
    Optional<PlanOutcome> leftOut = leftOut(candidate, podKey);
    if (leftOut.isPresent()) {
      return leftOut.get();
    }
    if (candidate.isEmpty() && request.filter(cluster::schedules).isPresent()) {
      Grouping grouping = cluster.group(request.get());
      if (grouping instanceof Grouping.Waits w) {
        // no node helps a pod that has no PodGroup
        return new PlanOutcome.Rejected(w.message(), ImmutableSet.of(), ImmutableSet.of());
      }
      if (grouping instanceof Grouping.LeftAlone a) {
        return new PlanOutcome.NotManaged(
            "pod " + podKey + " is in no PodGroup of Gantry: " + a.why());
      }
      live = cluster.snapshot();
      candidate = index(live).member(podKey);
      leftOut = leftOut(candidate, podKey);
      if (leftOut.isPresent()) {
        return leftOut.get();
      }
    }
    // the cluster may have changed while this call waited for the lock, and a snapshot leaves out
    // pods the caches alone cannot rule out
    Optional<PlanOutcome> notMine = notManaged(podKey, candidate.map(m -> m.task().status()));
    if (notMine.isPresent()) {
      return notMine.get();
    }
    PodIndex.Member member = candidate.orElseThrow();
    JobInfo job = member.job();
    TaskInfo task = member.task();
    ClusterSnapshot snapshot = book.apply(live);
    String jobId = job.id();
    if (!settings.fairShareWaiting()) {
      snapshot =
          Snapshots.filterJobs(
              snapshot,
              j -> j.id().equals(jobId) || j.tasks().stream().noneMatch(GangPlanner::pending));
    }
    CycleResult result = cycle.run(snapshot);
    metrics.planned();
    reserve(snapshot, result, now);
    remember(snapshot, result, now);
    Optional<Reservation> mine = book.live(podKey, now);
    if (mine.isPresent()) {
      return new PlanOutcome.Reserved(mine.get());
    }
    return rejected(job, task, result);
  }

  /**
   * Why the pod is not Gantry's to plan, or empty when it is a pending pod of a PodGroup.
   *
   * @param status the status of the pod's task; empty when it is no task of a PodGroup
   */
  private static Optional<PlanOutcome> notManaged(String podKey, Optional<TaskStatus> status) {
    if (status.isEmpty()) {
      return Optional.of(
          new PlanOutcome.NotManaged("pod " + podKey + " is in no PodGroup of Gantry"));
    }
    if (status.get() != TaskStatus.PENDING) {
      return Optional.of(
          new PlanOutcome.NotManaged(
              "pod " + podKey + " is " + status.get().displayName() + ", not Pending"));
    }
    return Optional.empty();
  }

  /** The index of {@code live}, built once per snapshot the cluster hands out. */
  private PodIndex index(ClusterSnapshot live) {
    PodIndex i = podIndex;
    if (i == null || !i.indexes(live)) {
      i = PodIndex.of(live);
      podIndex = i;
    }
    return i;
  }

  /** Keeps the pods this cycle left pending (without a reservation) and why, for reuse. */
  private void remember(ClusterSnapshot snapshot, CycleResult result, Instant now) {
    ImmutableMap.Builder<String, TaskInfo> pending = ImmutableMap.builder();
    ImmutableMap.Builder<String, JobInfo> jobs = ImmutableMap.builder();
    for (JobInfo j : snapshot.jobs()) {
      boolean any = false;
      for (TaskInfo t : j.tasks()) {
        if (pending(t) && book.live(Snapshots.podKey(t), now).isEmpty()) {
          pending.put(Snapshots.podKey(t), t);
          any = true;
        }
      }
      if (any) {
        jobs.put(j.id(), j);
      }
    }
    last = new LastPlan(now, pending.buildKeepingLast(), jobs.buildKeepingLast(), result);
  }

  /** Ends expired reservations, with a metric and a warning event on each pod. */
  void expire(Instant now) {
    ImmutableList<Reservation> expired = book.expire(now);
    if (expired.isEmpty()) {
      return;
    }
    // capacity came free: the last plan's rejections no longer stand
    last = null;
    metrics.expired(expired.size());
    for (Reservation r : expired) {
      String message =
          "Capacity reserved on node "
              + r.placement().node()
              + " for PodGroup "
              + r.task().jobId()
              + " expired after "
              + settings.reservationTtl().toSeconds()
              + "s before the gang was bound";
      LOG.info("{}: {}", r.podKey(), message);
      cluster.warn(r.task(), "GangReservationExpired", message);
    }
  }

  /** Reserves the nodes of every PodGroup the cycle decided to bind, one barrier per PodGroup. */
  private void reserve(ClusterSnapshot snapshot, CycleResult result, Instant now) {
    Map<String, List<BindDecision>> byJob = new TreeMap<>();
    Map<String, TaskInfo> tasks = new TreeMap<>();
    Map<String, JobInfo> jobs = new TreeMap<>();
    for (JobInfo j : snapshot.jobs()) {
      jobs.put(j.id(), j);
      for (TaskInfo t : j.tasks()) {
        tasks.put(t.id(), t);
      }
    }
    for (Decision d : result.decisions()) {
      if (d instanceof BindDecision b && tasks.containsKey(b.taskId())) {
        byJob.computeIfAbsent(tasks.get(b.taskId()).jobId(), k -> new ArrayList<>()).add(b);
      }
    }
    Instant expires = now.plus(settings.reservationTtl());
    List<Reservation> out = new ArrayList<>();
    for (Map.Entry<String, List<BindDecision>> e : byJob.entrySet()) {
      JobInfo job = jobs.get(e.getKey());
      long active = job.tasks().stream().filter(t -> t.status().isActiveAllocated()).count();
      int required =
          (int) Math.max(1, Math.min(e.getValue().size(), minMembers(job.root()) - active));
      GangBarrier barrier = new GangBarrier(job.id(), required);
      for (BindDecision b : e.getValue()) {
        out.add(new Reservation(tasks.get(b.taskId()), PlannedNode.of(b), barrier, expires));
      }
    }
    book.reserve(out);
  }

  private static PlanOutcome.Rejected rejected(JobInfo job, TaskInfo task, CycleResult result) {
    ImmutableSet.Builder<String> resolvable = ImmutableSet.builder();
    ImmutableSet.Builder<String> victims = ImmutableSet.builder();
    for (Decision d : result.decisions()) {
      if (d instanceof PipelineDecision p
          && job.tasks().stream().anyMatch(t -> t.id().equals(p.taskId()))) {
        resolvable.add(p.nodeName());
      } else if (d instanceof EvictDecision e
          && e.cause().preemptorJobId().filter(job.id()::equals).isPresent()) {
        victims.add(e.taskId());
      }
    }
    return new PlanOutcome.Rejected(
        message(job, task, result), resolvable.build(), victims.build());
  }

  /** Why the pod was not placed: its own fit message, its job's, or the job's last event. */
  private static String message(JobInfo job, TaskInfo task, CycleResult result) {
    for (JobOutcome j : result.jobs()) {
      if (!j.jobId().equals(job.id())) {
        continue;
      }
      for (TaskOutcome t : j.tasks()) {
        if (t.taskId().equals(task.id()) && t.fitMessage().isPresent()) {
          return t.fitMessage().get();
        }
      }
      if (j.fitMessage().isPresent()) {
        return j.fitMessage().get();
      }
    }
    String last = null;
    for (CycleEvent e : result.events()) {
      if (e.object().equals(job.id())) {
        last = e.message();
      }
    }
    if (last != null) {
      return last;
    }
    return "Gantry placed no pod of PodGroup " + job.name() + " in this cycle";
  }

  private static boolean pending(TaskInfo t) {
    return t.status() == TaskStatus.PENDING;
  }

  /** The pods a PodGroup needs at least: the sum of its PodSets' minMember. */
  static long minMembers(SubGroupSet set) {
    long sum = 0;
    for (SubGroupNode child : set.children()) {
      sum += child instanceof PodSet p ? p.minMember() : minMembers((SubGroupSet) child);
    }
    return sum;
  }
}
