package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.extender.wire.BindingArgs;
import io.gantry.extender.wire.ExtenderArgs;
import io.gantry.extender.wire.FilterResult;
import io.gantry.extender.wire.HostPriority;
import io.gantry.extender.wire.NodeNames;
import io.gantry.extender.wire.NodeVictims;
import io.gantry.extender.wire.PreemptionArgs;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four extender verbs over one {@link GangPlanner}: {@code filter} and {@code prioritize} send
 * each pod to the node planned for it, {@code bind} binds a gang member once its gang's minimum has
 * reached {@code bind}, {@code preempt} keeps only the victims Gantry's rules allow. Expired
 * reservations are swept every second. Thread-safe.
 */
public final class Extender implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Extender.class);

  private final ExtenderCluster cluster;
  private final ExtenderSettings settings;
  private final ExtenderMetrics metrics;
  private final ReservationBook book = new ReservationBook();
  private final GangPlanner planner;
  private final Clock clock;
  private final ScheduledExecutorService sweeper;

  public Extender(
      ExtenderCluster cluster,
      SchedulingCycle cycle,
      ExtenderSettings settings,
      ExtenderMetrics metrics,
      Clock clock) {
    this.cluster = requireNonNull(cluster, "cluster is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.planner = new GangPlanner(cluster, cycle, book, settings, metrics, clock);
    metrics.reservations(book::size);
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gantry-extender-sweeper");
              t.setDaemon(true);
              return t;
            });
    // expire() logs and counts; a failure in it must not stop later sweeps
    var unused = sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
  }

  public ExtenderSettings settings() {
    return settings;
  }

  public ExtenderMetrics metrics() {
    return metrics;
  }

  private void sweep() {
    try {
      planner.expire(clock.instant());
    } catch (RuntimeException e) {
      LOG.warn("sweeping reservations failed", e);
    }
  }

  public FilterResult filter(ExtenderArgs args) {
    return filter(args, planner.plan(args.pod()));
  }

  /**
   * The answer of {@link #filter} when it needs no planning cycle; empty when only a cycle can
   * answer. Never blocks, so a network thread may call it.
   */
  public Optional<FilterResult> filterIfKnown(ExtenderArgs args) {
    return planner.known(args.pod()).map(plan -> filter(args, plan));
  }

  private static FilterResult filter(ExtenderArgs args, PlanOutcome plan) {
    NodeNames nodes = args.nodeNames();
    if (plan instanceof PlanOutcome.NotManaged) {
      // every node passes: the answer echoes the request's names without decoding them
      return new FilterResult(nodes, ImmutableMap.of(), ImmutableMap.of(), "");
    }
    NodeNames passing = NodeNames.EMPTY;
    ImmutableMap.Builder<String, String> failed = ImmutableMap.builder();
    ImmutableMap.Builder<String, String> unresolvable = ImmutableMap.builder();
    if (plan instanceof PlanOutcome.Reserved r) {
      String node = r.reservation().placement().node();
      if (nodes.contains(node)) {
        // kube-scheduler drops the nodes an answer leaves out, and reads their reasons only when
        // no node passes: naming thousands of nodes that fail here would change nothing
        passing = NodeNames.of(ImmutableList.of(node));
      } else {
        String elsewhere =
            "Gantry reserved node "
                + node
                + " for this pod with PodGroup "
                + r.reservation().task().jobId();
        for (String n : nodes) {
          unresolvable.put(n, elsewhere);
        }
      }
    } else if (plan instanceof PlanOutcome.Rejected r) {
      for (String n : nodes) {
        if (r.resolvableNodes().contains(n)) {
          failed.put(n, r.message());
        } else {
          unresolvable.put(n, r.message());
        }
      }
    }
    // a name the request repeats gets one entry (the answer for it is the same each time)
    return new FilterResult(
        passing, failed.buildKeepingLast(), unresolvable.buildKeepingLast(), "");
  }

  public ImmutableList<HostPriority> prioritize(ExtenderArgs args) {
    return prioritize(args, planner.plan(args.pod()));
  }

  /**
   * The answer of {@link #prioritize} when it needs no planning cycle; empty when only a cycle can
   * answer. Never blocks, so a network thread may call it.
   */
  public Optional<ImmutableList<HostPriority>> prioritizeIfKnown(ExtenderArgs args) {
    return planner.known(args.pod()).map(plan -> prioritize(args, plan));
  }

  private static ImmutableList<HostPriority> prioritize(ExtenderArgs args, PlanOutcome plan) {
    Optional<String> planned =
        plan instanceof PlanOutcome.Reserved r
            ? Optional.of(r.reservation().placement().node())
            : Optional.empty();
    // a node left out of the answer scores 0, as if listed with 0: only the planned node is named
    return planned.isPresent() && args.nodeNames().contains(planned.get())
        ? ImmutableList.of(new HostPriority(planned.get(), HostPriority.MAX))
        : ImmutableList.of();
  }

  /**
   * Binds the pod to its reserved node once its gang's minimum has reached {@code bind}.
   *
   * @return bound, or why not (kube-scheduler retries the pod)
   */
  public BindOutcome bind(BindingArgs args) throws InterruptedException {
    String key = args.pod().key();
    PlanOutcome plan = planner.plan(key);
    if (plan instanceof PlanOutcome.Rejected r) {
      return new BindOutcome.BindRejected(r.message());
    }
    if (plan instanceof PlanOutcome.NotManaged n) {
      return new BindOutcome.BindRejected("Gantry cannot bind " + key + ": " + n.why());
    }
    Reservation r = ((PlanOutcome.Reserved) plan).reservation();
    if (!r.placement().node().equals(args.node())) {
      return new BindOutcome.BindRejected(
          "pod "
              + key
              + " is reserved on node "
              + r.placement().node()
              + ", not on node "
              + args.node());
    }
    GangBarrier barrier = r.barrier();
    GangBarrier.Wait wait = barrier.await(settings.bindWait());
    if (!wait.opened()) {
      return new BindOutcome.BindRejected(
          "PodGroup "
              + barrier.jobId()
              + " has "
              + wait.waiting()
              + " of the "
              + barrier.required()
              + " pods it needs waiting to bind after "
              + settings.bindWait().toMillis()
              + "ms; the gang is not bound partially");
    }
    try {
      cluster.bind(r.task(), r.placement());
    } catch (ExtenderCluster.BindFailure e) {
      return new BindOutcome.BindRejected(e.getMessage());
    }
    book.markBound(key);
    return new BindOutcome.Bound();
  }

  /**
   * Narrows kube-scheduler's candidate victims: a node stays only if every victim on it may be
   * evicted for this pod by Gantry's rules. A victim may be evicted when its PodGroup is
   * preemptible and either it is in the preemptor's queue with a lower priority (preempt), or the
   * engine's own plan for the preemptor evicts it (reclaim and preempt as configured). A
   * non-preemptible pod, or one Gantry does not know, is never a victim.
   */
  public ImmutableSortedMap<String, NodeVictims> preempt(PreemptionArgs args) {
    PlanOutcome plan = planner.planNow(args.pod().key());
    ImmutableSortedMap.Builder<String, NodeVictims> out = ImmutableSortedMap.naturalOrder();
    if (!(plan instanceof PlanOutcome.Rejected rejected)) {
      // placed (nothing to evict) or not Gantry's: no victims are needed for it
      return out.build();
    }
    Map<String, TaskInfo> tasks = new HashMap<>();
    Map<String, JobInfo> jobs = new HashMap<>();
    for (JobInfo j : cluster.snapshot().jobs()) {
      jobs.put(j.id(), j);
      for (TaskInfo t : j.tasks()) {
        tasks.put(t.id(), t);
      }
    }
    TaskInfo preemptorTask = null;
    for (TaskInfo t : tasks.values()) {
      if (Snapshots.podKey(t).equals(args.pod().key())) {
        preemptorTask = t;
      }
    }
    if (preemptorTask == null) {
      return out.build();
    }
    JobInfo preemptor = jobs.get(preemptorTask.jobId());
    for (Map.Entry<String, NodeVictims> e : args.victims().entrySet()) {
      boolean allowed = true;
      for (String uid : e.getValue().podUids()) {
        TaskInfo victim = cluster.taskIdOfUid(uid).map(tasks::get).orElse(null);
        JobInfo victimJob = victim == null ? null : jobs.get(victim.jobId());
        if (victimJob == null
            || !victimJob.preemptible()
            || !(rejected.victimTaskIds().contains(victim.id())
                || (victimJob.queue().equals(preemptor.queue())
                    && victimJob.priority() < preemptor.priority()))) {
          allowed = false;
          break;
        }
      }
      if (allowed) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out.build();
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }
}
