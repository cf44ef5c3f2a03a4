package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import io.gantry.scheduler.model.ClusterSnapshot;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The mutable view of one scheduling cycle that actions hold, a facade over its parts: the node,
 * job and task state built from the snapshot ({@link SessionState}), the one way tasks move ({@link
 * TaskMoves}), the GPUs tasks count for in their queues ({@link QuotaGpuLedger}), what the cycle
 * records ({@link CycleEventLog}), the plugins' hooks, and the {@link NodeSearch} the wiring chose.
 * Single-threaded.
 */
public final class Session implements SessionView {
  private final ClusterSnapshot snapshot;
  private final PluginHooks hooks;
  private final NodeSearch search;
  private final SessionState sessionState;
  private final QuotaGpuLedger ledger;
  private final TaskMoves moves;
  private final CycleEventLog log;
  private final CycleState state = new CycleState();

  private Session(ClusterSnapshot snapshot, PluginHooks hooks, NodeSearch search) {
    this.snapshot = snapshot;
    this.hooks = hooks;
    this.search = search;
    this.sessionState = new SessionState(snapshot);
    this.ledger = new QuotaGpuLedger(snapshot);
    this.moves = new TaskMoves(sessionState, ledger, hooks);
    this.log = new CycleEventLog(sessionState, snapshot.now());
  }

  /**
   * Builds the session, puts every task that holds resources on its node, then opens the plugins. A
   * task the snapshot shows pipelined holds the releasing resources it was placed on for this
   * cycle, so no other task is pipelined onto them; it leaves at {@link #close} and is decided anew
   * next cycle.
   */
  public static Session open(ClusterSnapshot snapshot, PluginHooks hooks) {
    return open(snapshot, hooks, new IndexedNodeSearch());
  }

  /** {@link #open(ClusterSnapshot, PluginHooks)} searching with {@code search}. */
  public static Session open(ClusterSnapshot snapshot, PluginHooks hooks, NodeSearch search) {
    return open(snapshot, hooks, search, ActionObserver.NONE);
  }

  /**
   * {@link #open(ClusterSnapshot, PluginHooks, NodeSearch)} with {@code observer} published in the
   * session's state before the plugins open, so it hears each plugin open and every action.
   */
  public static Session open(
      ClusterSnapshot snapshot, PluginHooks hooks, NodeSearch search, ActionObserver observer) {
    Session session = new Session(snapshot, hooks, search);
    session.state().write(ActionObserver.KEY, observer);
    session.moves.placeSnapshotTasks();
    hooks.openSession(session, observer);
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
  public NodeSearch search() {
    return search;
  }

  @Override
  public ImmutableList<NodeState> nodes() {
    return sessionState.nodes();
  }

  public NodeState node(String name) {
    return sessionState.node(name);
  }

  /** GPU nodes ordered by free whole devices, kept current as tasks move. */
  public NodeIndex nodeIndex() {
    return sessionState.nodeIndex();
  }

  @Override
  public Optional<NodeState> findNode(String name) {
    return sessionState.findNode(name);
  }

  @Override
  public ImmutableList<JobState> jobs() {
    return sessionState.jobs();
  }

  public JobState job(String id) {
    return sessionState.job(id);
  }

  public TaskState task(String id) {
    return sessionState.task(id);
  }

  @Override
  public CycleState state() {
    return state;
  }

  public Statement statement() {
    return new Statement(this);
  }

  public List<Decision> decisions() {
    return log.decisions();
  }

  public List<CycleEvent> events() {
    return log.events();
  }

  public void recordEvent(String object, String reason, String message) {
    log.recordEvent(object, reason, message);
  }

  public void recordJobFitError(JobState job, JobFitReason error) {
    log.recordJobFitError(job, error);
  }

  public void recordTaskFitError(TaskState task, PodSchedulingFailure error) {
    log.recordTaskFitError(task, error);
  }

  /** The job started running this cycle ({@code kai.scheduler/last-start-timestamp}). */
  public void markStarted(JobState job) {
    log.markStarted(job);
  }

  /** Sets or clears the job's {@code kai.scheduler/stale-podgroup-timestamp}. */
  public void markStale(JobState job, Optional<Instant> since) {
    log.markStale(job, since);
  }

  void recordCommitted(List<Decision> committed) {
    log.recordCommitted(committed);
  }

  @Override
  public boolean evictedInOpenStatement(TaskState task) {
    return moves.evictedInOpenStatement(task);
  }

  void markEvictedInOpenStatement(TaskState task, boolean evicted) {
    moves.markEvictedInOpenStatement(task, evicted);
  }

  /** Changes whenever any task moves; lets plugins cache what depends on where pods are. */
  @Override
  public long placementVersion() {
    return moves.placementVersion();
  }

  /** See {@link TaskMoves#move}. */
  void move(TaskState task, TaskPlacement target) {
    moves.move(task, target);
  }

  /** Smallest per-device GPU memory among GPU nodes; converts memory requests for fair share. */
  public long minNodeGpuMemoryMib() {
    return ledger.minNodeGpuMemoryMib();
  }

  /** Largest per-device GPU memory among GPU nodes; converts memory requests for limit checks. */
  public long maxNodeGpuMemoryMib() {
    return ledger.maxNodeGpuMemoryMib();
  }

  /**
   * GPUs a task counts for in its queue: where it is placed, its actual portion; pending, its
   * request (memory requests converted with the smallest node GPU memory, kai-reference §5.2); a
   * DRA GPU claim it shares counted as {@link QuotaGpuTally} counts it for the task alone.
   */
  @Override
  public GpuAmount quotaGpus(TaskState task) {
    return ledger.quotaGpus(task);
  }

  @Override
  public GpuAmount quotaGpus(Collection<TaskState> tasks) {
    return ledger.quotaGpus(tasks);
  }

  @Override
  public GpuAmount limitCheckGpus(Collection<TaskState> tasks) {
    return ledger.limitCheckGpus(tasks);
  }

  @Override
  public QuotaGpuTally quotaGpuTally() {
    return ledger.quotaGpuTally();
  }

  @Override
  public GpuAmount heldGpus(Collection<TaskState> placed) {
    return ledger.heldGpus(placed);
  }

  /** The shared-claim holder counts, for tests that recount them from scratch. */
  SharedGpuClaims sharedClaims() {
    return ledger.sharedClaims();
  }

  /**
   * Ends the cycle: no plugin hears of later moves, and tasks that were only pipelined leave their
   * nodes, since they bind nothing and the next cycle decides them anew. Node state then reads as
   * the cluster will hold it.
   */
  public void close() {
    moves.removePipelined();
  }
}
