package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * What must hold after any cycle of all five actions on a random small cluster (issue 6): a
 * non-preemptible job is never evicted to make room for another; a queue at or under its deserved
 * quota in every resource never loses resources to reclaim; a preempt victim has strictly lower
 * priority than its preemptor and is in its queue; consolidation never leaves a victim without a
 * new place; no gang is left running below its minimum by an eviction; no task is evicted twice.
 * Each try is one seeded world: 1–4 nodes, flat queues or two departments, running gangs (some
 * elastic, some recently started with queue min-runtimes) that fill part of the nodes, and pending
 * jobs of every priority class.
 */
class EvictionInvariantsTest {
  private static final int[] PRIORITIES = {50, 75, 100, 125};

  /** One random world and the cycle it ran. */
  record Run(long seed, ClusterSnapshot snapshot, CycleResult result) {
    @Override
    public String toString() {
      return "seed " + seed;
    }
  }

  @Provide
  Arbitrary<Run> runs() {
    return Arbitraries.longs().map(EvictionInvariantsTest::run);
  }

  @Property(tries = 250)
  void nonPreemptibleJobsAreNeverVictims(@ForAll("runs") Run run) {
    for (EvictDecision e : evictions(run)) {
      if (!e.cause().action().equals("stalegangeviction")) {
        assertThat(job(run, e.taskId()).preemptible()).as(e.toString()).isTrue();
      }
    }
  }

  @Property(tries = 250)
  void aQueueWithinItsDeservedQuotaNeverLosesResourcesToReclaim(@ForAll("runs") Run run) {
    // Reclaim runs after allocate: a victim queue's allocation then includes this cycle's binds.
    Map<String, ResourceVector> start = allocationWhenReclaimRuns(run);
    Map<String, QueueInfo> queues = new HashMap<>();
    run.snapshot().queues().forEach(q -> queues.put(q.name(), q));
    Set<String> replaced = pipelined(run);
    for (EvictDecision e : evictions(run)) {
      if (!e.cause().action().equals("reclaim") || replaced.contains(e.taskId())) {
        continue;
      }
      String reclaimerQueue = jobById(run, e.cause().preemptorJobId().orElseThrow()).queue();
      String victimQueue = job(run, e.taskId()).queue();
      String leveled = leveledVictimQueue(queues, reclaimerQueue, victimQueue);
      QueueInfo q = queues.get(leveled);
      boolean overDeserved = false;
      for (ResourceKind r : ResourceKind.values()) {
        double deserved = q.resource(r).quota();
        overDeserved |= deserved != QueueResource.UNLIMITED && start.get(leveled).get(r) > deserved;
      }
      assertThat(overDeserved).as(e + " from " + leveled).isTrue();
    }
  }

  @Property(tries = 250)
  void preemptVictimsHaveStrictlyLowerPriorityInThePreemptorsQueue(@ForAll("runs") Run run) {
    for (EvictDecision e : evictions(run)) {
      if (e.cause().action().equals("preempt")) {
        JobInfo victim = job(run, e.taskId());
        JobInfo preemptor = jobById(run, e.cause().preemptorJobId().orElseThrow());
        assertThat(victim.priority()).as(e.toString()).isLessThan(preemptor.priority());
        assertThat(victim.queue()).as(e.toString()).isEqualTo(preemptor.queue());
      }
    }
  }

  @Property(tries = 250)
  void consolidationNeverLeavesAVictimUnplaced(@ForAll("runs") Run run) {
    Set<String> replaced = pipelined(run);
    for (EvictDecision e : evictions(run)) {
      if (e.cause().action().equals("consolidation")) {
        assertThat(replaced).as(e.toString()).contains(e.taskId());
      }
    }
  }

  @Property(tries = 250)
  void noGangIsLeftRunningBelowItsMinimumByAnEviction(@ForAll("runs") Run run) {
    Set<String> jobsWithEvictions = new HashSet<>();
    for (EvictDecision e : evictions(run)) {
      jobsWithEvictions.add(job(run, e.taskId()).id());
    }
    for (JobOutcome j : run.result().jobs()) {
      if (!jobsWithEvictions.contains(j.jobId())) {
        continue;
      }
      JobInfo info = jobById(run, j.jobId());
      Map<String, String> podSetOf = new HashMap<>();
      info.tasks().forEach(t -> podSetOf.put(t.id(), t.podSetName()));
      Map<String, Integer> active = new HashMap<>();
      int anyActive = 0;
      for (TaskOutcome t : j.tasks()) {
        if (t.status().isActiveAllocated()) {
          active.merge(podSetOf.get(t.taskId()), 1, Integer::sum);
          anyActive++;
        }
      }
      if (anyActive == 0) {
        continue;
      }
      for (PodSet p : podSets(info)) {
        assertThat(active.getOrDefault(p.name(), 0))
            .as(j.jobId() + " " + p.name())
            .isGreaterThanOrEqualTo(p.minMember());
      }
    }
  }

  /**
   * World 6254788: a smaller probe recorded two of an elastic job's three tasks as victims and
   * placed the third again, leaving it running alone against minMember 2.
   */
  @Example
  void recordedVictimsNeverCutAGang() {
    noGangIsLeftRunningBelowItsMinimumByAnEviction(run(6254788L));
  }

  /** World 3530353223: consolidation moved one task of a gang, then reclaim took the rest. */
  @Example
  void aJobConsolidationMovedIsNoLongerAVictimInTheSameCycle() {
    noGangIsLeftRunningBelowItsMinimumByAnEviction(run(3530353223L));
  }

  @Property(tries = 250)
  void noTaskIsEvictedTwice(@ForAll("runs") Run run) {
    List<String> evicted = evictions(run).stream().map(EvictDecision::taskId).toList();
    assertThat(evicted).doesNotHaveDuplicates();
  }

  /** The worlds are not vacuous: over 300 seeds, every eviction action evicts something. */
  @Example
  void theWorldsExerciseEveryEvictionAction() {
    Map<String, Integer> byAction = new TreeMap<>();
    for (long seed = 0; seed < 300; seed++) {
      for (EvictDecision e : evictions(run(seed))) {
        byAction.merge(e.cause().action(), 1, Integer::sum);
      }
    }
    assertThat(byAction).containsKeys("consolidation", "reclaim", "preempt");
  }

  // ---------------------------------------------------------------------------------------------

  static Run run(long seed) {
    ClusterSnapshot snapshot = world(new Random(seed));
    Random r = new Random(seed);
    EvictionSettings settings =
        new EvictionSettings(
            Duration.ofSeconds(60),
            r.nextBoolean() ? 16 : -1,
            r.nextBoolean(),
            EvictionSettings.DEFAULTS.budgets());
    SchedulerConfig config =
        new SchedulerConfig(
            SchedulerConfig.DEFAULT_ACTIONS, ImmutableSortedMap.of(), Placement.DEFAULTS, settings);
    CycleResult result =
        new SchedulerWiring(new ActionRegistry(), new PluginRegistry(), new FakeTicker())
            .cycle(config)
            .run(snapshot);
    return new Run(seed, snapshot, result);
  }

  private static ClusterSnapshot world(Random r) {
    List<NodeInfo> nodes = new ArrayList<>();
    Map<String, Integer> free = new HashMap<>();
    int nodeCount = 1 + r.nextInt(4);
    for (int n = 0; n < nodeCount; n++) {
      int gpus = new int[] {2, 4, 8}[r.nextInt(3)];
      nodes.add(Nodes.node("n" + n).gpus(gpus).build());
      free.put("n" + n, gpus);
    }
    List<QueueInfo> queues = new ArrayList<>();
    List<String> leaves = new ArrayList<>();
    if (r.nextBoolean()) {
      int count = 2 + r.nextInt(2);
      for (int i = 0; i < count; i++) {
        queues.add(leaf(r, "q" + i, Optional.empty()));
        leaves.add("q" + i);
      }
    } else {
      for (String dept : List.of("d0", "d1")) {
        queues.add(Queues.queue(dept).gpu(r.nextInt(9), r.nextInt(3), -1).build());
        int children = 1 + r.nextInt(2);
        for (int i = 0; i < children; i++) {
          String name = dept + "-" + i;
          queues.add(leaf(r, name, Optional.of(dept)));
          leaves.add(name);
        }
      }
    }
    List<JobInfo> jobs = new ArrayList<>();
    int runningJobs = r.nextInt(8);
    for (int j = 0; j < runningJobs; j++) {
      String node = "n" + r.nextInt(nodeCount);
      int room = free.get(node);
      if (room == 0) {
        continue;
      }
      int tasks = 1 + r.nextInt(Math.min(room, 4));
      int minMember = 1 + r.nextInt(tasks);
      Jobs.Builder job = job(r, "r" + j, leaves).minMember(minMember);
      if (r.nextInt(3) == 0) {
        job.lastStartedAt(Snapshots.T0.minus(Duration.ofMinutes(r.nextInt(20))));
      }
      job.tasks(tasks, t -> t.gpus(1).running(node));
      jobs.add(job.build());
      free.put(node, room - tasks);
    }
    int pendingJobs = 1 + r.nextInt(4);
    for (int j = 0; j < pendingJobs; j++) {
      int tasks = 1 + r.nextInt(3);
      int gpus = 1 + r.nextInt(4);
      Jobs.Builder job = job(r, "p" + j, leaves).minMember(1 + r.nextInt(tasks));
      if (r.nextInt(4) == 0) {
        job.preemptionDelay(Duration.ofMinutes(r.nextInt(3)));
      }
      jobs.add(job.tasks(tasks, t -> t.gpus(gpus)).build());
    }
    return Snapshots.of(nodes, queues, jobs);
  }

  private static QueueInfo leaf(Random r, String name, Optional<String> parent) {
    Queues.Builder q = Queues.queue(name).gpu(r.nextInt(9), r.nextInt(3), -1);
    parent.ifPresent(q::parent);
    if (r.nextInt(3) == 0) {
      q.reclaimMinRuntime(Duration.ofMinutes(10));
    }
    if (r.nextInt(3) == 0) {
      q.preemptMinRuntime(Duration.ofMinutes(10));
    }
    return q.build();
  }

  private static Jobs.Builder job(Random r, String name, List<String> leaves) {
    int priority = PRIORITIES[r.nextInt(PRIORITIES.length)];
    Jobs.Builder job =
        Jobs.job(name).queue(leaves.get(r.nextInt(leaves.size()))).priority(priority);
    if (priority >= 100) {
      job.nonPreemptible();
    }
    return job;
  }

  private static List<EvictDecision> evictions(Run run) {
    return run.result().decisions().stream()
        .filter(d -> d.kind() == Decision.Kind.EVICT)
        .map(EvictDecision.class::cast)
        .toList();
  }

  private static Set<String> pipelined(Run run) {
    Set<String> out = new HashSet<>();
    for (Decision d : run.result().decisions()) {
      if (d.kind() == Decision.Kind.PIPELINE) {
        out.add(d.taskId());
      }
    }
    return out;
  }

  private static JobInfo job(Run run, String taskId) {
    for (JobInfo j : run.snapshot().jobs()) {
      for (TaskInfo t : j.tasks()) {
        if (t.id().equals(taskId)) {
          return j;
        }
      }
    }
    throw new IllegalArgumentException(taskId);
  }

  private static JobInfo jobById(Run run, String jobId) {
    return run.snapshot().jobs().stream()
        .filter(j -> j.id().equals(jobId))
        .findFirst()
        .orElseThrow();
  }

  private static List<PodSet> podSets(JobInfo job) {
    List<PodSet> out = new ArrayList<>();
    job.root().children().forEach(c -> out.add((PodSet) c));
    return out;
  }

  /** Each queue's allocation in the snapshot, its subtree's placed tasks, per resource. */
  /** Each queue's running tasks at the start, plus the tasks this cycle bound (allocate's). */
  private static Map<String, ResourceVector> allocationWhenReclaimRuns(Run run) {
    ClusterSnapshot snapshot = run.snapshot();
    Set<String> bound = new HashSet<>();
    for (Decision d : run.result().decisions()) {
      if (d.kind() == Decision.Kind.BIND) {
        bound.add(d.taskId());
      }
    }
    Map<String, QueueInfo> queues = new HashMap<>();
    snapshot.queues().forEach(q -> queues.put(q.name(), q));
    Map<String, ResourceVector> out = new HashMap<>();
    snapshot.queues().forEach(q -> out.put(q.name(), ResourceVector.ZERO));
    for (JobInfo j : snapshot.jobs()) {
      for (TaskInfo t : j.tasks()) {
        if (t.status() != TaskStatus.RUNNING && !bound.contains(t.id())) {
          continue;
        }
        for (QueueInfo q = queues.get(j.queue());
            q != null;
            q = q.parent().map(queues::get).orElse(null)) {
          out.merge(q.name(), ResourceVector.of(t.request()), ResourceVector::plus);
        }
      }
    }
    return out;
  }

  /** The victim's side of the two queues below the lowest common ancestor. */
  private static String leveledVictimQueue(
      Map<String, QueueInfo> queues, String reclaimer, String victim) {
    List<String> r = rootFirst(queues, reclaimer);
    List<String> v = rootFirst(queues, victim);
    int i = 0;
    while (i < r.size() && i < v.size() && r.get(i).equals(v.get(i))) {
      i++;
    }
    return v.get(Math.min(i, v.size() - 1));
  }

  private static List<String> rootFirst(Map<String, QueueInfo> queues, String leaf) {
    List<String> path = new ArrayList<>();
    for (QueueInfo q = queues.get(leaf); q != null; q = q.parent().map(queues::get).orElse(null)) {
      path.add(0, q.name());
    }
    return path;
  }
}
