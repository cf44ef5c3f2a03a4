package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.kubemodel.config.PluginSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Runs a scenario through the engine's {@link SchedulingCycle}, cycle by cycle in simulated time:
 * bound tasks start running the next cycle, pipelined ones are decided anew, finished and released
 * ones leave (and come back as new pods when their job replaces them), arriving jobs join.
 */
public final class Simulator {
  private final SchedulerWiring wiring;
  private final SearchStrategy strategy;

  /** KAI's actions and plugins, with DRA device selectors in CEL. */
  public Simulator() {
    this(new SchedulerWiring(new CelDeviceSelectors()));
  }

  public Simulator(SchedulerWiring wiring) {
    this(wiring, SearchStrategy.INDEXED);
  }

  /** Runs the engine with {@code strategy}; {@link SearchStrategy#BASELINE} is for comparisons. */
  public Simulator(SchedulerWiring wiring, SearchStrategy strategy) {
    this.wiring = wiring;
    this.strategy = strategy;
  }

  /** Compiles and runs a loaded scenario; {@code cycles} overrides {@code config.cycles}. */
  public SimulationResult run(ScenarioSpec spec, OptionalInt cycles) throws ScenarioException {
    return run(spec, cycles, CycleObserver.NONE);
  }

  /** {@link #run(ScenarioSpec, OptionalInt)}, telling {@code observer} each cycle's result. */
  public SimulationResult run(ScenarioSpec spec, OptionalInt cycles, CycleObserver observer)
      throws ScenarioException {
    SimWorld world = ScenarioCompiler.compile(spec);
    SchedulingCycle cycle = cycle(world, spec);
    int cycleCount = cycles.orElse(world.cycles());
    List<SimulationResult.EventResult> events = new ArrayList<>();
    Instant now = world.start();
    CycleResult last = null;
    Optional<UsageHistory> history =
        spec.config().usage().map(u -> new UsageHistory(u, world.start(), world.nodes()));
    for (int n = 1; n <= cycleCount; n++) {
      now = world.start().plus(world.cyclePeriod().multipliedBy(n - 1L));
      if (n > 1) {
        advance(world, now);
      }
      ImmutableSortedMap<String, ResourceVector> usage =
          history.isPresent() ? history.get().usage(now) : ImmutableSortedMap.of();
      releaseClaims(world);
      last = cycle.run(snapshot(world, now, usage));
      apply(world, last, now);
      if (history.isPresent()) {
        history.get().record(now, last);
      }
      for (CycleEvent e : last.events()) {
        events.add(new SimulationResult.EventResult(n, e.object(), e.reason(), e.message()));
      }
      observer.cycleRun(n, cycleCount, last);
    }
    return new ResultBuilder(world, now, last).build(cycleCount, events);
  }

  private SchedulingCycle cycle(SimWorld world, ScenarioSpec spec) throws ScenarioException {
    try {
      return wiring.cycle(world.config(), strategy);
    } catch (ConfigException e) {
      throw new ScenarioException(
          spec.sourceName(), configLine(spec, e.key()), "config." + e.key(), e.problem());
    }
  }

  /** The line of the setting a configuration key names: its plugin entry, or its config key. */
  private static int configLine(ScenarioSpec spec, String key) {
    String[] parts = key.split("\\.", -1);
    Map<String, Integer> lines = spec.config().fieldLines();
    if (parts[0].equals("plugins") && parts.length > 1) {
      PluginSpec plugin = spec.config().plugins().get(parts[1]);
      if (plugin != null) {
        return plugin.line();
      }
    }
    return lines.getOrDefault(parts[0], 1);
  }

  static ClusterSnapshot snapshot(
      SimWorld world, Instant now, ImmutableSortedMap<String, ResourceVector> usage) {
    return new ClusterSnapshot(
        now,
        world.nodes(),
        world.queues(),
        world.jobs().stream()
            .filter(j -> !j.arrival.isAfter(now))
            .map(SimJob::current)
            .collect(ImmutableList.toImmutableList()),
        usage,
        world.topologies(),
        dynamicResources(world, now));
  }

  /**
   * The DRA objects as the cluster holds them now: each claim with the allocation a bind wrote and
   * the pods that hold it in {@code reservedFor}.
   */
  static DynamicResources dynamicResources(SimWorld world, Instant now) {
    DynamicResources base = world.dynamicResources();
    if (base.claims().isEmpty()) {
      return base;
    }
    Map<String, List<String>> consumers = consumers(world, now);
    ImmutableSortedMap.Builder<String, ResourceClaim> claims = ImmutableSortedMap.naturalOrder();
    for (ResourceClaim c : base.claims().values()) {
      claims.put(
          c.key(),
          c.withStatus(
              Optional.ofNullable(world.claimAllocations().get(c.key())),
              ImmutableList.copyOf(consumers.getOrDefault(c.key(), List.of()))));
    }
    return new DynamicResources(base.deviceClasses(), base.slices(), claims.build());
  }

  /** Pods that exist on a node (bound, running or releasing), by the claims they use. */
  private static Map<String, List<String>> consumers(SimWorld world, Instant now) {
    Map<String, List<String>> consumers = new TreeMap<>();
    for (SimJob job : world.jobs()) {
      if (job.arrival.isAfter(now)) {
        continue;
      }
      for (SimTask t : job.tasks) {
        if (!t.status.holdsNodeResources()) {
          continue;
        }
        for (PodClaim pc : t.template.resourceClaims()) {
          consumers
              .computeIfAbsent(
                  ResourceClaim.key(t.template.namespace(), pc.claimName()), k -> new ArrayList<>())
              .add(t.template.podName());
        }
      }
    }
    return consumers;
  }

  /**
   * A claim no existing pod reserves any more is deallocated (protocols.md §4.5 item 8), so its
   * devices are free for the next cycle.
   */
  private static void releaseClaims(SimWorld world) {
    if (world.claimAllocations().isEmpty()) {
      return;
    }
    Map<String, List<String>> consumers = consumers(world, Instant.MAX);
    world.claimAllocations().keySet().removeIf(claim -> !consumers.containsKey(claim));
  }

  /** Applies what the cycle decided, and keeps each task's fit message for the report. */
  private static void apply(SimWorld world, CycleResult result, Instant now) {
    Map<String, SimTask> tasks = new HashMap<>();
    for (SimJob job : world.jobs()) {
      for (SimTask t : job.tasks) {
        tasks.put(t.template.id(), t);
      }
    }
    for (Decision d : result.decisions()) {
      SimTask t = tasks.get(d.taskId());
      switch (d.kind()) {
        case BIND -> {
          BindDecision b = (BindDecision) d;
          place(t, TaskStatus.BINDING, b.nodeName(), b.gpuGroups(), b.gpuPortion(), now);
          for (ClaimAllocation c : b.claimAllocations()) {
            world
                .claimAllocations()
                .putIfAbsent(
                    ResourceClaim.key(t.template.namespace(), c.claimName()), c.allocation());
          }
          t.gpuDevices = b.gpuDevices();
        }
        case PIPELINE -> {
          PipelineDecision p = (PipelineDecision) d;
          if (t.status == TaskStatus.RELEASING) {
            // an evicted pod re-placed elsewhere: the old pod keeps releasing its place
            t.releasing = new SimTask.Releasing(t.node, t.gpuGroups, t.gpuPortion, t.gpuDevices);
          }
          Instant evictedAt = t.since;
          place(t, TaskStatus.PIPELINED, p.nodeName(), p.gpuGroups(), p.gpuPortion(), now);
          t.gpuDevices = p.gpuDevices();
          if (t.releasing != null) {
            t.since = evictedAt;
          }
        }
        case EVICT -> {
          EvictDecision e = (EvictDecision) d;
          t.status = TaskStatus.RELEASING;
          t.since = now;
          t.message = e.message();
        }
      }
    }
    Map<String, SimJob> jobs = new HashMap<>();
    world.jobs().forEach(j -> jobs.put(j.template.id(), j));
    for (JobOutcome job : result.jobs()) {
      jobs.get(job.jobId()).lifecycle = job.lifecycle();
      for (TaskOutcome task : job.tasks()) {
        tasks.get(task.taskId()).message = task.fitMessage().orElse(null);
      }
    }
  }

  private static void place(
      SimTask t,
      TaskStatus status,
      String node,
      List<String> groups,
      GpuAmount portion,
      Instant now) {
    t.status = status;
    t.node = node;
    t.gpuGroups = ImmutableList.copyOf(groups);
    t.gpuPortion = portion;
    t.gpuDevices = ImmutableList.of();
    t.since = now;
  }

  /**
   * A releasing task is gone once its termination grace period has passed (at once with none), and
   * then comes back as a new pending copy when its job replaces evicted pods. True when the copy
   * took {@code creationOrder}.
   */
  private static boolean releaseOrKeep(
      SimJob job, SimTask t, Instant now, List<SimTask> next, long creationOrder) {
    Duration released = Duration.between(t.since, now);
    if ((released.compareTo(job.terminationGracePeriod) >= 0 && !released.isZero())
        || job.terminationGracePeriod.isZero()) {
      if (job.replace) {
        next.add(t.replacement(now, creationOrder));
        return true;
      }
      return false;
    }
    next.add(t);
    return false;
  }

  /** Moves the world to the next cycle's time (scenario-format.md, multi-cycle rules). */
  private static void advance(SimWorld world, Instant now) {
    long creationOrder = world.jobs().stream().mapToLong(j -> j.tasks.size()).sum() * 2L;
    for (SimJob job : world.jobs()) {
      List<SimTask> next = new ArrayList<>();
      for (SimTask t : job.tasks) {
        switch (t.status) {
          case BINDING, BOUND -> {
            // the task started when it was bound; its duration counts from then
            t.status = TaskStatus.RUNNING;
            next.add(t);
          }
          case PIPELINED -> {
            if (t.releasing != null) {
              // the evicted pod is still releasing where it ran; its replacement comes later
              t.status = TaskStatus.RELEASING;
              t.node = t.releasing.node();
              t.gpuGroups = t.releasing.gpuGroups();
              t.gpuPortion = t.releasing.gpuPortion();
              t.gpuDevices = t.releasing.gpuDevices();
              t.releasing = null;
              if (releaseOrKeep(job, t, now, next, creationOrder)) {
                creationOrder++;
              }
            } else {
              place(t, TaskStatus.PENDING, null, List.of(), GpuAmount.ZERO, now);
              next.add(t);
            }
          }
          case RUNNING -> {
            if (job.duration.isPresent() && !t.since.plus(job.duration.get()).isAfter(now)) {
              t.status = TaskStatus.SUCCEEDED;
              t.gpuGroups = ImmutableList.of();
              t.gpuPortion = GpuAmount.ZERO;
              t.gpuDevices = ImmutableList.of();
            }
            next.add(t);
          }
          case RELEASING -> {
            if (releaseOrKeep(job, t, now, next, creationOrder)) {
              creationOrder++;
            }
          }
          default -> next.add(t);
        }
      }
      job.tasks.clear();
      job.tasks.addAll(next);
    }
  }
}
