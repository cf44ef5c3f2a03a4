package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.fairness.CapacityChecks;
import io.gantry.scheduler.fairness.FairShareDivider;
import io.gantry.scheduler.fairness.QueueAttributes;
import io.gantry.scheduler.fairness.QueueOrderRule;
import io.gantry.scheduler.fairness.QueueSnapshot;
import io.gantry.scheduler.fairness.QueueTree;
import io.gantry.scheduler.fairness.ReclaimRules;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.AllocationListener;
import io.gantry.scheduler.framework.CapacityPolicy;
import io.gantry.scheduler.framework.EvictionEligibility;
import io.gantry.scheduler.framework.EvictionScenario;
import io.gantry.scheduler.framework.FairShares;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.QueueOrder;
import io.gantry.scheduler.framework.QueueShares;
import io.gantry.scheduler.framework.QuotaGpuTally;
import io.gantry.scheduler.framework.ReclaimCeiling;
import io.gantry.scheduler.framework.ScenarioValidator;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.framework.VictimFilter;
import io.gantry.scheduler.framework.VictimQueueOrder;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.dynamicresources.PublishedGpuDevices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;

/**
 * KAI's proportion plugin: per-queue allocation and fair share (kai-reference §5.1–5.3), the queue
 * order (§5.7, also as victim queues read it), the capacity checks (§5.5) and the reclaim rules
 * (§5.6): who may reclaim, from which queues, and which scenarios keep every queue fair. Queue
 * allocation follows every statement operation.
 */
public final class ProportionPlugin
    implements SessionOpenHook,
        QueueOrder,
        VictimQueueOrder,
        CapacityPolicy,
        AllocationListener,
        EvictionEligibility,
        VictimFilter,
        ScenarioValidator,
        ReclaimCeiling {
  public static final String NAME = "proportion";

  private final ProportionArgs args;
  private final PublishedGpuDevices publishedGpus;
  private SessionView session;
  private QueueTree tree;
  private QueueOrderRule orderRule;
  private TasksToAllocate tasksToAllocate;
  private ReclaimRules reclaimRules;
  private ImmutableMap<String, QueueSnapshot> solutionStart = ImmutableMap.of();

  /** One leaf queue's tasks at session open, by what they count toward. */
  private static final class QueueTasks {
    final List<TaskState> allocatedPreemptible = new ArrayList<>();
    final List<TaskState> allocatedNonPreemptible = new ArrayList<>();
    final List<TaskState> pending = new ArrayList<>();
  }

  /**
   * A job's request as of one {@link JobState#version()}; looked up, never iterated. {@code
   * placementVersion}: for a job with DRA claims, the session's {@link
   * SessionView#placementVersion()} it was computed at, since its claims' GPUs count only while no
   * other job's pod holds them, which the job's version does not follow; -1 for a job without.
   */
  private record JobRequest(long version, long placementVersion, Resources request) {
    boolean current(JobState job, SessionView session) {
      return version == job.version()
          && (placementVersion < 0 || placementVersion == session.placementVersion());
    }
  }

  private final IdentityHashMap<JobState, JobRequest> jobRequests = new IdentityHashMap<>();

  /** A queue's order position as of its version and its next job's version; looked up only. */
  private record QueuePosition(
      long queueVersion, JobState job, long jobVersion, QueueOrderRule.Position position) {
    boolean current(JobState next) {
      return queueVersion == position.queue().version()
          && job == next
          && jobVersion == next.version();
    }
  }

  private final Map<String, QueuePosition> positions = new HashMap<>();

  // made once: the queue order asks on every heap comparison, and a hit must allocate nothing
  private final BiFunction<String, JobState, QueuePosition> computePosition = this::computePosition;
  private final BiPredicate<JobRequest, JobState> requestCurrent =
      (cached, job) -> cached.current(job, session);
  private final BiFunction<JobState, JobState, JobRequest> computeRequest =
      (job, same) -> computeJobRequest(job);

  /**
   * Without CEL ({@link DeviceSelectorEvaluator#NONE}): DRA devices count as GPUs only through a
   * GPU DeviceClass without selectors; for engine tests whose snapshots need no more.
   */
  public ProportionPlugin(ProportionArgs args) {
    this(args, new PublishedGpuDevices(DeviceSelectorEvaluator.NONE));
  }

  /**
   * {@code publishedGpus}: the DRA GPU devices the capacity adds, shared by a scheduler's cycles.
   */
  public ProportionPlugin(ProportionArgs args, PublishedGpuDevices publishedGpus) {
    this.args = args;
    this.publishedGpus = publishedGpus;
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
    this.tasksToAllocate = new TasksToAllocate(session);
    ResourceVector total = capacity(session.snapshot());
    this.tree = new QueueTree(session.snapshot().queues(), total);
    this.orderRule = new QueueOrderRule(total);
    // summed per leaf first (exact sums, so the order does not matter; a shared DRA GPU claim
    // counts once in its queue), then added up the tree
    Map<String, QueueTasks> byQueue = new LinkedHashMap<>();
    for (JobState job : session.jobs()) {
      String queue = job.info().queue();
      if (tree.find(queue).isEmpty()) {
        continue;
      }
      QueueTasks q = byQueue.computeIfAbsent(queue, k -> new QueueTasks());
      for (TaskState task : job.tasks()) {
        if (task.status().isAllocated() || task.status() == TaskStatus.PIPELINED) {
          (job.info().preemptible() ? q.allocatedPreemptible : q.allocatedNonPreemptible).add(task);
        } else if (task.status() == TaskStatus.PENDING) {
          q.pending.add(task);
        }
      }
    }
    byQueue.forEach(
        (queue, q) -> {
          Resources preemptible =
              counted(q.allocatedPreemptible, session.heldGpus(q.allocatedPreemptible));
          Resources nonPreemptible =
              counted(q.allocatedNonPreemptible, session.heldGpus(q.allocatedNonPreemptible));
          Resources pending = counted(q.pending, session.quotaGpus(q.pending));
          tree.addAllocated(queue, preemptible, false);
          tree.addAllocated(queue, nonPreemptible, true);
          tree.addRequest(queue, preemptible.plus(nonPreemptible).plus(pending));
        });
    tree.computeFairShares(new FairShareDivider(args.kValue()), session.snapshot().queueUsage());
    this.reclaimRules = new ReclaimRules(args.reclaimerSaturationMultiplier());
    QueueTree divided = tree;
    session
        .state()
        .write(FairShares.KEY, queue -> divided.find(queue).map(QueueAttributes::fairShares));
    session
        .state()
        .write(
            QueueShares.KEY,
            queue ->
                divided
                    .find(queue)
                    .map(
                        q ->
                            new QueueShares.Amounts(
                                deserved(q), q.fairShares(), allocated(q), q.priority())));
  }

  @Override
  public int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB) {
    return orderRule.compare(position(queueA, jobA), position(queueB, jobB));
  }

  /**
   * The queue's position in the queue order with {@code job} next, asked on every heap comparison
   * and so kept per queue while neither the queue's quantities nor the job change.
   */
  private QueueOrderRule.Position position(String queue, JobState job) {
    // the position holds the queue's attributes: a hit, on nearly every heap comparison, needs no
    // lookup in the tree (one tree a session, and a plugin serves one session)
    return session
        .search()
        .reuse(positions, queue, job, QueuePosition::current, computePosition)
        .position();
  }

  private QueuePosition computePosition(String queue, JobState job) {
    QueueAttributes q = tree.get(queue);
    QueueOrderRule.Position position = orderRule.position(q, jobRequest(job));
    return new QueuePosition(q.version(), job, job.version(), position);
  }

  @Override
  public int compareVictimQueues(
      String queueA,
      JobState jobA,
      Resources removedA,
      String queueB,
      JobState jobB,
      Resources removedB) {
    return orderRule.compare(
        tree.get(queueA), jobRequest(jobA), removedA, tree.get(queueB), jobRequest(jobB), removedB);
  }

  @Override
  public boolean canReclaimResources(JobState reclaimer) {
    Optional<QueueAttributes> leaf = tree.find(reclaimer.info().queue());
    return leaf.isPresent()
        && ReclaimRules.canReclaimResources(
            leaf.get(), ResourceVector.of(jobRequest(reclaimer)), reclaimer.info().preemptible());
  }

  @Override
  public boolean nonPreemptibleOverQuota(JobState job, List<TaskState> tasks) {
    if (job.info().preemptible()) {
      return false;
    }
    return CapacityChecks.nonPreemptibleOverQuota(
        tree.pathToRoot(job.info().queue()), counted(tasks, session.quotaGpus(tasks)));
  }

  /** Reclaim only: the victim's queue passes the §5.6.2 pre-filter for the reclaimer. */
  @Override
  public boolean admitsVictim(ActionType action, JobState preemptor, JobState victim) {
    if (action != ActionType.RECLAIM) {
      return true;
    }
    return ReclaimRules.victimEligible(
        tree::get,
        preemptor.info().queue(),
        ResourceVector.of(jobRequest(preemptor)),
        victim.info().queue());
  }

  @Override
  public void onJobSolutionStart(ActionType action, JobState preemptor) {
    if (action == ActionType.RECLAIM) {
      solutionStart = tree.capture();
    }
  }

  /**
   * Reclaim only (§5.6.3): victims chunked per job (each elastic surplus pod alone, the core pods
   * together; re-placed victims left out with allowConsolidatingReclaim), checked against the queue
   * state captured when the reclaimer's search started.
   */
  @Override
  public boolean validScenario(ActionType action, EvictionScenario scenario) {
    if (action != ActionType.RECLAIM) {
      return true;
    }
    Map<String, List<ResourceVector>> chunks = new LinkedHashMap<>();
    // one tally for the scenario: a DRA GPU claim shared by victims of several chunks is freed by
    // the chunk that takes its last holder
    QuotaGpuTally freed = session.quotaGpuTally();
    for (List<TaskState> victimTasks : scenario.victimsByJob()) {
      JobState victim = victimTasks.get(0).job();
      List<ResourceVector> jobChunks = victimChunks(victim, victimTasks, scenario, freed);
      if (!jobChunks.isEmpty()) {
        chunks.computeIfAbsent(victim.info().queue(), q -> new ArrayList<>()).addAll(jobChunks);
      }
    }
    JobState reclaimer = scenario.preemptor();
    return reclaimRules.reclaimable(
        solutionStart::get,
        reclaimer.info().queue(),
        ResourceVector.of(scenario.preemptorRequest()),
        reclaimer.info().preemptible(),
        chunks);
  }

  /**
   * Reclaim's bound from the strategies of §5.6.3, on the queues as a search would capture them.
   */
  @Override
  public double reclaimableGpus(JobState reclaimer, Map<String, VictimGpus> victimsByQueue) {
    return ReclaimRules.reclaimableGpus(tree::get, reclaimer.info().queue(), victimsByQueue);
  }

  private List<ResourceVector> victimChunks(
      JobState victim,
      List<TaskState> victimTasks,
      EvictionScenario scenario,
      QuotaGpuTally freed) {
    Map<String, Integer> seenPerPodSet = new TreeMap<>();
    Map<String, Integer> minMember = new TreeMap<>();
    victim.podSets().forEach(p -> minMember.put(p.name(), p.minMember()));
    List<ResourceVector> out = new ArrayList<>();
    List<TaskState> core = new ArrayList<>();
    for (TaskState t : victimTasks) {
      String podSet = t.info().podSetName();
      int index = seenPerPodSet.merge(podSet, 1, Integer::sum);
      boolean reclaimsNothing =
          scenario.allowConsolidatingReclaim() && t.status().isActiveAllocated();
      if (reclaimsNothing) {
        continue;
      }
      if (index > minMember.getOrDefault(podSet, 0)) {
        out.add(ResourceVector.of(counted(t, freed.add(t))));
      } else {
        core.add(t);
      }
    }
    if (!core.isEmpty()) {
      out.add(ResourceVector.of(counted(core, freed.addAll(core))));
    }
    return out;
  }

  @Override
  public Optional<CapacityExceeded> checkJob(JobState job, List<TaskState> tasks) {
    return CapacityChecks.check(
        tree.pathToRoot(job.info().queue()),
        counted(tasks, session.limitCheckGpus(tasks)),
        !job.info().preemptible());
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
   * per job version, and for a job with DRA claims per placement too (the exhaustive search
   * recomputes it each time).
   */
  private Resources jobRequest(JobState job) {
    return session.search().reuse(jobRequests, job, job, requestCurrent, computeRequest).request();
  }

  private JobRequest computeJobRequest(JobState job) {
    List<TaskState> tasks = tasksToAllocate.of(job);
    boolean withClaims = false;
    for (TaskState t : tasks) {
      withClaims |= !t.info().resourceClaims().isEmpty();
    }
    return new JobRequest(
        job.version(),
        withClaims ? session.placementVersion() : -1,
        counted(tasks, session.quotaGpus(tasks)));
  }

  /**
   * What the top-level queues divide (kai-reference §5.1): each ready node's allocatable, its GPUs
   * whole GPUs plus MIG instances, and the GPU devices DRA ResourceSlices publish for ready nodes.
   */
  private ResourceVector capacity(ClusterSnapshot snapshot) {
    ResourceVector total = ResourceVector.ZERO;
    for (NodeInfo n : snapshot.nodes()) {
      if (n.ready()) {
        Resources a = n.allocatable();
        total = total.plus(ResourceVector.of(a.withGpus(a.quotaGpus())));
      }
    }
    long draGpus = publishedGpus.count(snapshot.dynamicResources(), snapshot.nodes());
    return total.with(ResourceKind.GPU, total.gpus() + draGpus);
  }

  private static ResourceVector deserved(QueueAttributes q) {
    ResourceVector v = ResourceVector.ZERO;
    for (ResourceKind r : ResourceKind.values()) {
      v = v.with(r, q.deserved(r));
    }
    return v;
  }

  private static ResourceVector allocated(QueueAttributes q) {
    ResourceVector v = ResourceVector.ZERO;
    for (ResourceKind r : ResourceKind.values()) {
      v = v.with(r, q.allocated(r));
    }
    return v;
  }

  /**
   * What a task counts for in its queue: its CPU and memory, and {@code gpus}. Asked per node per
   * task ({@link #checkTaskOnNode}), so without a list to sum.
   */
  private static Resources counted(TaskState task, GpuAmount gpus) {
    return task.queueAmount(gpus);
  }

  private static Resources counted(List<TaskState> tasks, GpuAmount gpus) {
    return TaskState.queueAmounts(tasks, gpus);
  }
}
