package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuMemoryRange;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The mutable view of one scheduling cycle: node, job and task state built from a snapshot, the
 * plugins' hooks, and what committed statements decided. Single-threaded.
 */
public final class Session implements SessionView {
  private final ClusterSnapshot snapshot;
  private final PluginHooks hooks;
  private final SearchStrategy strategy;
  private final ImmutableList<NodeState> nodes;
  private final Map<String, NodeState> nodesByName;
  private final NodeIndex nodeIndex = new NodeIndex();
  private final ImmutableList<JobState> jobs;
  // looked up by name or id, never iterated
  private final Map<String, JobState> jobsById;
  private final Map<String, TaskState> tasksById;
  private final GpuMemoryRange gpuMemoryRange;
  private final SharedGpuClaims sharedClaims;
  private final List<Decision> decisions = new ArrayList<>();
  private final List<CycleEvent> events = new ArrayList<>();
  private final CycleState state = new CycleState();
  private final Set<TaskState> evictedInOpenStatement =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean open;
  private long placementVersion;

  private Session(ClusterSnapshot snapshot, PluginHooks hooks, SearchStrategy strategy) {
    this.snapshot = snapshot;
    this.hooks = hooks;
    this.strategy = strategy;
    ImmutableList.Builder<NodeState> nodeList =
        ImmutableList.builderWithExpectedSize(snapshot.nodes().size());
    Map<String, NodeState> byName = new HashMap<>();
    int position = 0;
    List<Long> gpuNodeMemoriesMib = new ArrayList<>();
    for (NodeInfo n : snapshot.nodes()) {
      NodeState state = new NodeState(n, position++);
      nodeList.add(state);
      byName.put(n.name(), state);
      if (n.gpuCount() > 0) {
        gpuNodeMemoriesMib.add(n.gpuMemoryMib());
      }
    }
    this.nodes = nodeList.build();
    this.nodesByName = byName;
    this.gpuMemoryRange = GpuMemoryRange.over(gpuNodeMemoriesMib);
    this.sharedClaims = new SharedGpuClaims(snapshot.dynamicResources());
    ImmutableList.Builder<JobState> jobList =
        ImmutableList.builderWithExpectedSize(snapshot.jobs().size());
    Map<String, JobState> jobMap = new HashMap<>();
    for (JobInfo j : snapshot.jobs()) {
      JobState state = new JobState(j);
      jobList.add(state);
      jobMap.put(j.id(), state);
    }
    this.jobs = jobList.build();
    this.jobsById = jobMap;
    Map<String, TaskState> taskMap = new HashMap<>();
    for (JobState j : jobs) {
      for (TaskState t : j.tasks()) {
        taskMap.put(t.id(), t);
      }
    }
    this.tasksById = taskMap;
  }

  /**
   * Builds the session, puts every task that holds resources on its node, then opens the plugins. A
   * task the snapshot shows pipelined holds the releasing resources it was placed on for this
   * cycle, so no other task is pipelined onto them; it leaves at {@link #close} and is decided anew
   * next cycle.
   */
  public static Session open(ClusterSnapshot snapshot, PluginHooks hooks) {
    return open(snapshot, hooks, SearchStrategy.INDEXED);
  }

  /** {@link #open(ClusterSnapshot, PluginHooks)} searching with {@code strategy}. */
  public static Session open(ClusterSnapshot snapshot, PluginHooks hooks, SearchStrategy strategy) {
    Session session = new Session(snapshot, hooks, strategy);
    for (JobState job : session.jobs) {
      for (TaskState task : job.tasks()) {
        boolean occupies =
            task.status().holdsNodeResources() || task.status() == TaskStatus.PIPELINED;
        if (occupies && task.nodeName().isPresent()) {
          TaskPlacement placed = task.placement();
          task.apply(TaskPlacement.nowhere());
          session.move(task, placed);
        }
      }
    }
    // indexed once every running task is in place, rather than re-sorted at each of them
    session.nodes.forEach(session.nodeIndex::add);
    session.open = true;
    hooks.openSession(session);
    return session;
  }

  @Override
  public ClusterSnapshot snapshot() {
    return snapshot;
  }

  @Override
  public Instant now() {
    return snapshot.now();
  }

  @Override
  public PluginHooks hooks() {
    return hooks;
  }

  @Override
  public SearchStrategy strategy() {
    return strategy;
  }

  @Override
  public ImmutableList<NodeState> nodes() {
    return nodes;
  }

  public NodeState node(String name) {
    NodeState n = nodesByName.get(name);
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + name);
    }
    return n;
  }

  /** GPU nodes ordered by free whole devices, kept current as tasks move. */
  public NodeIndex nodeIndex() {
    return nodeIndex;
  }

  @Override
  public Optional<NodeState> findNode(String name) {
    return Optional.ofNullable(nodesByName.get(name));
  }

  @Override
  public ImmutableList<JobState> jobs() {
    return jobs;
  }

  public JobState job(String id) {
    return jobsById.get(id);
  }

  public TaskState task(String id) {
    return tasksById.get(id);
  }

  @Override
  public CycleState state() {
    return state;
  }

  public Statement statement() {
    return new Statement(this);
  }

  public List<Decision> decisions() {
    return List.copyOf(decisions);
  }

  public List<CycleEvent> events() {
    return List.copyOf(events);
  }

  public void recordEvent(String object, String reason, String message) {
    events.add(new CycleEvent(object, reason, message));
  }

  public void recordJobFitError(JobState job, JobFitReason error) {
    job.addFitError(error);
  }

  public void recordTaskFitError(TaskState task, PodSchedulingFailure error) {
    task.setFitError(error);
  }

  @Override
  public boolean evictedInOpenStatement(TaskState task) {
    return evictedInOpenStatement.contains(task);
  }

  void markEvictedInOpenStatement(TaskState task, boolean evicted) {
    boolean changed =
        evicted ? evictedInOpenStatement.add(task) : evictedInOpenStatement.remove(task);
    if (changed) {
      // whether the task waits for a place changed: so may its job's tasks to allocate
      task.job().changed();
    }
  }

  /** Changes whenever any task moves; lets plugins cache what depends on where pods are. */
  @Override
  public long placementVersion() {
    return placementVersion;
  }

  /** Smallest per-device GPU memory among GPU nodes; converts memory requests for fair share. */
  public long minNodeGpuMemoryMib() {
    return gpuMemoryRange.minMib();
  }

  /** Largest per-device GPU memory among GPU nodes; converts memory requests for limit checks. */
  public long maxNodeGpuMemoryMib() {
    return gpuMemoryRange.maxMib();
  }

  /**
   * GPUs a task counts for in its queue: where it is placed, its actual portion; pending, its
   * request (memory requests converted with the smallest node GPU memory, kai-reference §5.2); a
   * DRA GPU claim it shares counted as {@link QuotaGpuTally} counts it for the task alone.
   */
  @Override
  public GpuAmount quotaGpus(TaskState task) {
    if (task.info().resourceClaims().isEmpty()) {
      return ownQuotaGpus(task);
    }
    return quotaGpuTally().add(task);
  }

  /** GPUs the tasks count for together in their queues, each shared DRA GPU claim once. */
  @Override
  public GpuAmount quotaGpus(Collection<TaskState> tasks) {
    return quotaGpuTally().addAll(tasks);
  }

  /**
   * GPUs pending tasks count for together in limit checks (memory converted with the largest node);
   * a DRA GPU claim a placed task already holds needs no room.
   */
  @Override
  public GpuAmount limitCheckGpus(Collection<TaskState> tasks) {
    return new QuotaGpuTally(sharedClaims, this::ownLimitCheckGpus).addAll(tasks);
  }

  /** An empty sum of {@link #quotaGpus(TaskState)} that counts each shared claim once. */
  @Override
  public QuotaGpuTally quotaGpuTally() {
    return new QuotaGpuTally(sharedClaims, this::ownQuotaGpus);
  }

  /**
   * GPUs placed tasks hold together: each its own, and each DRA GPU claim once per queue and node
   * however many of them use it. What a queue's usage shows.
   */
  @Override
  public GpuAmount heldGpus(Collection<TaskState> placed) {
    GpuAmount sum = GpuAmount.ZERO;
    Set<SharedGpuClaims.OnNode> claimsSeen = new HashSet<>();
    long devices = 0;
    for (TaskState t : placed) {
      sum = sum.plus(ownQuotaGpus(t));
      String node = t.nodeName().orElse("");
      for (SharedGpuClaims.ClaimGpus c : sharedClaims.claims(t)) {
        if (claimsSeen.add(new SharedGpuClaims.OnNode(c.use(), node))) {
          devices += c.devices();
        }
      }
    }
    return sum.plus(GpuAmount.ofDevices(devices));
  }

  /** The task's own GPUs for quota and fair share: whole, fractional and MIG, without claims. */
  private GpuAmount ownQuotaGpus(TaskState task) {
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isEmpty()) {
      return task.info().request().quotaGpus();
    }
    if (task.gpuPortion().isPositive()) {
      return sharing.get().quotaGpusAt(task.gpuPortion());
    }
    return gpuMemoryRange.requestGpus(sharing.get());
  }

  /** The task's own GPUs for limit checks, without claims. */
  private GpuAmount ownLimitCheckGpus(TaskState task) {
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isEmpty()) {
      return task.info().request().quotaGpus();
    }
    return gpuMemoryRange.capacityCheckGpus(sharing.get());
  }

  /** The shared-claim holder counts, for tests that recount them from scratch. */
  SharedGpuClaims sharedClaims() {
    return sharedClaims;
  }

  /**
   * Ends the cycle: no plugin hears of later moves, and tasks that were only pipelined leave their
   * nodes, since they bind nothing and the next cycle decides them anew. Node state then reads as
   * the cluster will hold it.
   */
  public void close() {
    open = false;
    for (JobState job : jobs) {
      for (TaskState task : job.tasks()) {
        if (task.status() == TaskStatus.PIPELINED) {
          // an evicted task pipelined elsewhere is back to its releasing place
          move(task, task.placement().evictedFrom().orElse(TaskPlacement.nowhere()));
        }
      }
    }
  }

  void recordCommitted(List<Decision> committed) {
    decisions.addAll(committed);
    for (Decision d : committed) {
      if (d.kind() == Decision.Kind.EVICT) {
        JobState job = task(d.taskId()).job();
        job.setLifecycle(job.lifecycle().withLastEvictedAt(Optional.of(now())));
      }
    }
  }

  /** The job started running this cycle ({@code kai.scheduler/last-start-timestamp}). */
  public void markStarted(JobState job) {
    job.setLifecycle(job.lifecycle().withLastStartedAt(Optional.of(now())));
  }

  /** Sets or clears the job's {@code kai.scheduler/stale-podgroup-timestamp}. */
  public void markStale(JobState job, Optional<Instant> since) {
    job.setLifecycle(job.lifecycle().withStaleSince(since));
  }

  /**
   * Moves a task to a new placement, keeping node accounting and plugin listeners in step. A target
   * whose {@code evictedFrom} is the current (releasing) placement pipelines an evicted task
   * elsewhere while its old pod keeps releasing; a target equal to the current {@code evictedFrom}
   * takes the task back to its releasing place.
   */
  void move(TaskState task, TaskPlacement target) {
    placementVersion++;
    task.job().changed();
    TaskPlacement current = task.placement();
    boolean wasCounted = countsAsAllocated(current.status());
    GpuAmount gpusFreed = GpuAmount.ZERO;
    if (wasCounted) {
      // the task's own portion is read before it moves; its claims go with their last holder
      long claimDevicesFreed = sharedClaims.release(task, current.nodeName().orElseThrow());
      gpusFreed = ownQuotaGpus(task).plus(GpuAmount.ofDevices(claimDevicesFreed));
    }
    Optional<TaskPlacement> footprint = current.evictedFrom();
    boolean restore = footprint.isPresent() && footprint.get().equals(target);
    boolean keepCurrent =
        target.evictedFrom().isPresent() && target.evictedFrom().get().equals(current);
    boolean keepFootprint = footprint.isPresent() && target.evictedFrom().equals(footprint);
    if (keepCurrent && (current.charge() == null || current.status() != TaskStatus.RELEASING)) {
      throw new IllegalStateException("only a releasing task can be pipelined away: " + task.id());
    }
    if (current.charge() != null && !keepCurrent) {
      discharge(task, current);
    }
    if (footprint.isPresent() && !restore && !keepFootprint) {
      discharge(task, footprint.get());
    }
    TaskPlacement applied;
    if (restore) {
      applied = footprint.get();
    } else {
      NodeCharge charge = null;
      if (target.status().holdsNodeResources() || target.status() == TaskStatus.PIPELINED) {
        NodeState to = node(target.nodeName().orElseThrow());
        // a task evicted where it runs keeps the devices it holds there; a task of the snapshot
        // keeps those it was seen on
        List<Integer> wantedDevices =
            current.charge() != null && current.nodeName().equals(target.nodeName())
                ? current.charge().gpuDevices()
                : target.nodeName().equals(task.info().nodeName())
                    ? task.info().gpuDevices()
                    : List.of();
        charge =
            to.charge(
                task.info(),
                target.status(),
                target.gpuGroups(),
                target.gpuPortion(),
                wantedDevices);
        nodeIndex.update(to);
      }
      Optional<TaskPlacement> keptFootprint =
          keepCurrent ? Optional.of(current) : keepFootprint ? footprint : Optional.empty();
      applied =
          new TaskPlacement(
              target.status(),
              target.nodeName(),
              target.gpuGroups(),
              target.gpuPortion(),
              charge,
              keptFootprint);
    }
    task.apply(applied);
    if (open && wasCounted) {
      hooks.notifyDeallocate(task, gpusFreed);
    }
    if (countsAsAllocated(applied.status())) {
      long claimDevicesAdded = sharedClaims.hold(task, applied.nodeName().orElseThrow());
      if (open) {
        hooks.notifyAllocate(task, ownQuotaGpus(task).plus(GpuAmount.ofDevices(claimDevicesAdded)));
      }
    }
  }

  private void discharge(TaskState task, TaskPlacement placement) {
    NodeState from = node(placement.nodeName().orElseThrow());
    from.discharge(
        task.info(),
        placement.status(),
        placement.gpuGroups(),
        placement.gpuPortion(),
        placement.charge());
    nodeIndex.update(from);
  }

  /** Whether a task in this status counts toward its queue's allocation (pipelined included). */
  static boolean countsAsAllocated(TaskStatus status) {
    return status.isAllocated() || status == TaskStatus.PIPELINED;
  }
}
