package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.wire.RequestPod;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster held in memory, served without an API server: a starting snapshot (a scenario file's,
 * for {@code gantry extender --scenario}, whose command line reads the file; a generated one for
 * the benchmark), with the binds made so far kept in memory (a bound pod is {@code Bound} on its
 * node and GPUs from then on). A pod's UID is its task id ({@code namespace/job/task}), since
 * scenario files name no UIDs. Events are logged and kept.
 *
 * <p>A request's pod that is not in the cluster, of {@code schedulerName} and with a queue label,
 * is grouped as KAI's podgrouper groups it ({@link RequestPodGrouper}): a bare pod becomes its own
 * PodGroup, and is part of the cluster from then on. A pod with an owner waits: its owner is not in
 * the cluster, and the podgrouper does not group a pod whose owner it cannot read.
 */
public final class InMemoryCluster implements ExtenderCluster {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryCluster.class);

  private final String schedulerName;
  private final String queueLabelKey;
  private final Optional<RequestPodGrouper> grouper;
  private final List<RequestPod> grouped = new ArrayList<>();
  private final Map<String, PlannedNode> bound = new ConcurrentHashMap<>();
  private final List<String> events = new ArrayList<>();
  private volatile Start start;
  private volatile Versioned current;

  /** The starting snapshot and its tasks' ids; replaced when a request's pod is grouped. */
  private record Start(ClusterSnapshot snapshot, ImmutableSet<String> taskIds) {
    static Start of(ClusterSnapshot snapshot) {
      ImmutableSet.Builder<String> ids = ImmutableSet.builder();
      for (JobInfo j : snapshot.jobs()) {
        for (TaskInfo t : j.tasks()) {
          ids.add(t.id());
        }
      }
      return new Start(snapshot, ids.build());
    }
  }

  /** A cluster that groups no pod of a request: only the pods of {@code start} are planned. */
  public InMemoryCluster(ClusterSnapshot start) {
    this(start, RequestPod.DEFAULT_SCHEDULER, "", Optional.empty());
  }

  /**
   * A cluster that groups the pods of requests that are not in {@code start}, of {@code
   * schedulerName} and labelled {@code queueLabelKey}, with {@code grouper}.
   */
  public InMemoryCluster(
      ClusterSnapshot start,
      String schedulerName,
      String queueLabelKey,
      RequestPodGrouper grouper) {
    this(start, schedulerName, queueLabelKey, Optional.of(grouper));
  }

  private InMemoryCluster(
      ClusterSnapshot start,
      String schedulerName,
      String queueLabelKey,
      Optional<RequestPodGrouper> grouper) {
    this.start = Start.of(requireNonNull(start, "start is null"));
    this.schedulerName = requireNonNull(schedulerName, "schedulerName is null");
    this.queueLabelKey = requireNonNull(queueLabelKey, "queueLabelKey is null");
    this.grouper = requireNonNull(grouper, "grouper is null");
  }

  @Override
  public boolean schedules(RequestPod pod) {
    return grouper.isPresent() && pod.scheduledBy(schedulerName, queueLabelKey);
  }

  @Override
  public synchronized Grouping group(RequestPod pod) {
    Optional<String> leftAlone = pod.leftAlone();
    if (leftAlone.isPresent()) {
      return new Grouping.LeftAlone(leftAlone.get());
    }
    Optional<RequestPod.Owner> owner = pod.owner();
    if (owner.isPresent()) {
      RequestPod.Owner o = owner.get();
      return Grouping.Waits.of(
          pod.key(),
          "owner "
              + o.kind()
              + " "
              + pod.ref().namespace()
              + "/"
              + o.name()
              + " is not in the cluster the extender holds in memory");
    }
    List<RequestPod> pods = new ArrayList<>(grouped);
    pods.add(pod);
    ClusterSnapshot next;
    try {
      next = grouper.orElseThrow().startWith(pods);
    } catch (IllegalArgumentException e) {
      return Grouping.Waits.of(pod.key(), e.getMessage());
    }
    for (JobInfo j : next.jobs()) {
      for (TaskInfo t : j.tasks()) {
        if (Snapshots.podKey(t).equals(pod.key())) {
          grouped.add(pod);
          start = Start.of(next);
          LOG.info("grouped pod {} of a request into PodGroup {}", pod.key(), j.name());
          return new Grouping.Grouped(j.name());
        }
      }
    }
    throw new IllegalStateException("the grouper left out pod " + pod.key());
  }

  @Override
  public QueueHierarchy queueHierarchy() {
    return start.snapshot().queueHierarchy();
  }

  @Override
  public Optional<String> taskIdOfUid(String uid) {
    return start.taskIds().contains(uid) ? Optional.of(uid) : Optional.empty();
  }

  @Override
  public ClusterSnapshot snapshot() {
    return versioned().snapshot();
  }

  @Override
  public Optional<String> leftOut(String podKey) {
    // a scenario's pods are read whole or refused with the file
    return Optional.empty();
  }

  @Override
  public Optional<TaskStatus> candidateStatus(String podKey) {
    return versioned().index().member(podKey).map(m -> m.task().status());
  }

  @SuppressWarnings("ReferenceEquality") // the same start, not an equal one: it is replaced whole
  private Versioned versioned() {
    // binds are only ever added, so their count names the version of the cluster
    int binds = bound.size();
    Start base = start;
    Versioned v = current;
    if (v != null && v.binds() == binds && v.start() == base) {
      return v;
    }
    ClusterSnapshot s =
        binds == 0
            ? base.snapshot()
            : Snapshots.mapTasks(
                base.snapshot(),
                t -> {
                  PlannedNode p = bound.get(t.id());
                  return p == null
                      ? Optional.empty()
                      : Optional.of(Snapshots.placed(t, TaskStatus.BOUND, p));
                });
    v = new Versioned(base, binds, s, PodIndex.of(s));
    current = v;
    return v;
  }

  /**
   * The snapshot of {@code start} with the first {@code binds} binds applied (a bind racing the
   * build may be in it already; the next call then builds again).
   */
  private record Versioned(Start start, int binds, ClusterSnapshot snapshot, PodIndex index) {}

  @Override
  public void bind(TaskInfo task, PlannedNode placement) throws BindFailure {
    PlannedNode before = bound.putIfAbsent(task.id(), placement);
    if (before != null && !before.node().equals(placement.node())) {
      throw new BindFailure(
          "pod " + Snapshots.podKey(task) + " is already bound to node " + before.node());
    }
    LOG.info("bound {} to {} {}", Snapshots.podKey(task), placement.node(), placement.gpuGroups());
  }

  /** Where each pod was bound, by pod key ({@code namespace/name}). */
  public ImmutableMap<String, PlannedNode> bindings() {
    ImmutableMap.Builder<String, PlannedNode> out = ImmutableMap.builder();
    for (JobInfo j : start.snapshot().jobs()) {
      for (TaskInfo t : j.tasks()) {
        PlannedNode p = bound.get(t.id());
        if (p != null) {
          out.put(Snapshots.podKey(t), p);
        }
      }
    }
    return out.buildKeepingLast();
  }

  @Override
  public void warn(TaskInfo task, String reason, String message) {
    LOG.warn("{} {}: {}", Snapshots.podKey(task), reason, message);
    synchronized (events) {
      events.add(Snapshots.podKey(task) + " " + reason + ": " + message);
    }
  }

  /** The warning events recorded so far, as {@code pod reason: message}. */
  public ImmutableList<String> events() {
    synchronized (events) {
      return ImmutableList.copyOf(events);
    }
  }
}
