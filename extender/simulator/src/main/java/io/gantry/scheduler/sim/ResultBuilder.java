package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.actions.FitMessages;
import io.gantry.scheduler.fairness.QueueAttributes;
import io.gantry.scheduler.framework.GpuGroupView;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the simulated world after the last cycle into a {@link SimulationResult}: task and job
 * statuses from the world, fair shares from the last session's proportion plugin, allocation and
 * node GPUs from the final placements.
 */
final class ResultBuilder {
  private final SimWorld world;
  private final Instant now;
  private final Session lastCycle;

  private final Map<String, QueueInfo> queuesByName = new TreeMap<>();

  ResultBuilder(SimWorld world, Instant now, Session lastCycle) {
    this.world = world;
    this.now = now;
    this.lastCycle = lastCycle;
    world.queues().forEach(q -> queuesByName.put(q.name(), q));
  }

  SimulationResult build(int cycles, List<SimulationResult.EventResult> events) {
    Session finalState = Session.open(Simulator.snapshot(world, now), Simulator.noPlugins());
    ImmutableList.Builder<SimulationResult.TaskResult> tasks = ImmutableList.builder();
    ImmutableList.Builder<SimulationResult.JobResult> jobs = ImmutableList.builder();
    Map<String, double[]> allocated = new TreeMap<>();
    for (SimJob job : world.jobs()) {
      if (job.arrival.isAfter(now)) {
        continue;
      }
      TreeMap<String, Integer> statuses = new TreeMap<>();
      TreeSet<String> nodes = new TreeSet<>();
      for (SimTask t : job.tasks) {
        String status = t.status.displayName();
        statuses.merge(status, 1, Integer::sum);
        if (t.node != null) {
          nodes.add(t.node);
        }
        boolean holdsShare = t.template.isShared() && t.node != null && !t.gpuGroups.isEmpty();
        tasks.add(
            new SimulationResult.TaskResult(
                job.template.id(),
                job.fileName,
                t.template.name(),
                status,
                Optional.ofNullable(t.node),
                t.gpuGroups,
                holdsShare ? OptionalDouble.of(t.gpuPortion) : OptionalDouble.empty(),
                Optional.ofNullable(t.message)));
        if (t.status.isAllocated()) {
          addAllocation(allocated, job.template.queue(), t);
        }
      }
      String status = statuses.size() == 1 ? statuses.firstKey() : "Mixed";
      jobs.add(
          new SimulationResult.JobResult(
              job.template.id(),
              job.fileName,
              status,
              ImmutableSortedMap.copyOf(statuses),
              List.copyOf(nodes),
              job.template.queue(),
              jobMessage(job.template.id())));
    }
    return new SimulationResult(
        world.name(),
        cycles,
        tasks.build(),
        jobs.build(),
        queues(allocated),
        nodes(finalState),
        ImmutableList.copyOf(events));
  }

  private Optional<String> jobMessage(String jobId) {
    JobState job = lastCycle.job(jobId);
    return job == null ? Optional.empty() : FitMessages.jobMessage(job.fitErrors());
  }

  /** Adds the task's request to its queue and every ancestor. */
  private void addAllocation(Map<String, double[]> allocated, String queue, SimTask t) {
    Resources r = t.template.request();
    double gpus = t.template.gpuSharing().map(s -> s.quotaGpusAt(t.gpuPortion)).orElse(r.gpus());
    Optional<QueueInfo> q = Optional.ofNullable(queuesByName.get(queue));
    while (q.isPresent()) {
      double[] a = allocated.computeIfAbsent(q.get().name(), k -> new double[3]);
      a[ResourceKind.GPU.ordinal()] = Resources.roundGpus(a[ResourceKind.GPU.ordinal()] + gpus);
      a[ResourceKind.CPU.ordinal()] += r.cpuMillis();
      a[ResourceKind.MEMORY.ordinal()] += r.memoryBytes();
      q = q.get().parent().map(queuesByName::get);
    }
  }

  private ImmutableList<SimulationResult.QueueResult> queues(Map<String, double[]> allocated) {
    ImmutableList.Builder<SimulationResult.QueueResult> out = ImmutableList.builder();
    var tree = Simulator.proportion(lastCycle).map(p -> p.queues());
    for (QueueInfo q : world.queues()) {
      Optional<QueueAttributes> attrs = tree.flatMap(t -> t.find(q.name()));
      SimulationResult.Amounts fairShare =
          attrs
              .map(
                  a ->
                      new SimulationResult.Amounts(
                          a.fairShare(ResourceKind.GPU),
                          a.fairShare(ResourceKind.CPU),
                          a.fairShare(ResourceKind.MEMORY)))
              .orElse(new SimulationResult.Amounts(0, 0, 0));
      double[] a = allocated.getOrDefault(q.name(), new double[3]);
      out.add(
          new SimulationResult.QueueResult(
              q.name(),
              fairShare,
              new SimulationResult.Amounts(a[0], a[1], a[2]),
              new SimulationResult.Amounts(q.gpu().quota(), q.cpu().quota(), q.memory().quota())));
    }
    return out.build();
  }

  private static ImmutableList<SimulationResult.NodeResult> nodes(Session finalState) {
    ImmutableList.Builder<SimulationResult.NodeResult> out = ImmutableList.builder();
    for (NodeState n : finalState.nodes()) {
      int idle = n.idleWholeGpus();
      int releasing = n.releasingWholeGpus();
      ImmutableList.Builder<SimulationResult.SharedGpuGroup> groups = ImmutableList.builder();
      for (GpuGroupView g : n.gpuGroups()) {
        groups.add(new SimulationResult.SharedGpuGroup(g.id(), g.usedPortion()));
      }
      out.add(
          new SimulationResult.NodeResult(
              n.name(), idle, releasing, n.info().gpuCount() - idle - releasing, groups.build()));
    }
    return out.build();
  }
}
