package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
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
 */
public final class InMemoryCluster implements ExtenderCluster {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryCluster.class);

  private final ClusterSnapshot start;
  private final ImmutableSet<String> taskIds;
  private final Map<String, PlannedNode> bound = new ConcurrentHashMap<>();
  private final List<String> events = new ArrayList<>();
  private volatile Versioned current;

  public InMemoryCluster(ClusterSnapshot start) {
    this.start = requireNonNull(start, "start is null");
    ImmutableSet.Builder<String> ids = ImmutableSet.builder();
    for (JobInfo j : start.jobs()) {
      for (TaskInfo t : j.tasks()) {
        ids.add(t.id());
      }
    }
    this.taskIds = ids.build();
  }

  @Override
  public QueueHierarchy queueHierarchy() {
    return start.queueHierarchy();
  }

  @Override
  public Optional<String> taskIdOfUid(String uid) {
    return taskIds.contains(uid) ? Optional.of(uid) : Optional.empty();
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

  private Versioned versioned() {
    // binds are only ever added, so their count names the version of the cluster
    int binds = bound.size();
    Versioned v = current;
    if (v != null && v.binds() == binds) {
      return v;
    }
    ClusterSnapshot s =
        binds == 0
            ? start
            : Snapshots.mapTasks(
                start,
                t -> {
                  PlannedNode p = bound.get(t.id());
                  return p == null
                      ? Optional.empty()
                      : Optional.of(Snapshots.placed(t, TaskStatus.BOUND, p));
                });
    v = new Versioned(binds, s, PodIndex.of(s));
    current = v;
    return v;
  }

  /**
   * The snapshot with the first {@code binds} binds applied (a bind racing the build may be in it
   * already; the next call then builds again).
   */
  private record Versioned(int binds, ClusterSnapshot snapshot, PodIndex index) {}

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
    for (JobInfo j : start.jobs()) {
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
