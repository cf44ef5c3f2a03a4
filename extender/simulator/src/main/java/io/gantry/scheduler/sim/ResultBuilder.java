package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.Iterables;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.NodeOutcome;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.dra.AllocationConfig;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the simulated world after the last cycle into a {@link SimulationResult}: task and job
 * statuses from the world, job messages, fair shares, allocation and node GPUs from the last
 * cycle's result.
 */
final class ResultBuilder {
  private final SimWorld world;
  private final Instant now;
  private final CycleResult lastCycle;

  ResultBuilder(SimWorld world, Instant now, CycleResult lastCycle) {
    this.world = world;
    this.now = now;
    this.lastCycle = lastCycle;
  }

  SimulationResult build(int cycles, List<SimulationResult.EventResult> events) {
    Map<String, Optional<String>> jobMessages = new TreeMap<>();
    for (JobOutcome j : lastCycle.jobs()) {
      jobMessages.put(j.jobId(), j.fitMessage());
    }
    ImmutableList.Builder<SimulationResult.TaskResult> tasks = ImmutableList.builder();
    ImmutableList.Builder<SimulationResult.JobResult> jobs = ImmutableList.builder();
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
                holdsShare ? OptionalDouble.of(t.gpuPortion.toDouble()) : OptionalDouble.empty(),
                t.node == null ? List.of() : t.gpuDevices,
                Optional.ofNullable(t.message)));
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
              jobMessages.getOrDefault(job.template.id(), Optional.empty())));
    }
    return new SimulationResult(
        world.name(),
        cycles,
        tasks.build(),
        jobs.build(),
        queues(),
        nodes(),
        ImmutableList.copyOf(events),
        claims());
  }

  private ImmutableList<SimulationResult.ClaimResult> claims() {
    ImmutableList.Builder<SimulationResult.ClaimResult> out = ImmutableList.builder();
    for (ResourceClaim c : Simulator.dynamicResources(world, now).claims().values()) {
      List<String> devices = new ArrayList<>();
      List<String> config = new ArrayList<>();
      Optional<String> node = Optional.empty();
      if (c.allocation().isPresent()) {
        for (DeviceResult d : c.allocation().get().devices()) {
          devices.add(d.request() + ": " + d.deviceId());
        }
        for (AllocationConfig a : c.allocation().get().config()) {
          config.add(
              a.source().apiName()
                  + " "
                  + (a.requests().isEmpty() ? "*" : String.join(",", a.requests()))
                  + ": "
                  + a.opaque().driver()
                  + " "
                  + a.opaque().parametersJson());
        }
        node = where(c.allocation().get());
      }
      out.add(new SimulationResult.ClaimResult(c.key(), devices, config, node, c.reservedFor()));
    }
    return out.build();
  }

  /**
   * The node an allocation is bound to, or for a broader node selector its terms ({@code nodes
   * where zone In [a], gpu Exists}, terms joined by {@code or}); empty when it has none.
   */
  private static Optional<String> where(AllocationResult allocation) {
    if (allocation.nodeSelectorTerms().isEmpty() || allocation.nodeName().isPresent()) {
      return allocation.nodeName();
    }
    List<String> terms = new ArrayList<>();
    for (NodeSelectorTerm term : allocation.nodeSelectorTerms()) {
      List<String> requirements = new ArrayList<>();
      for (NodeSelectorRequirement r :
          Iterables.concat(term.matchExpressions(), term.matchFields())) {
        requirements.add(
            r.key()
                + " "
                + r.operator().k8sName()
                + (r.values().isEmpty() ? "" : " [" + String.join(", ", r.values()) + "]"));
      }
      terms.add(String.join(", ", requirements));
    }
    return Optional.of("nodes where " + String.join(" or ", terms));
  }

  private ImmutableList<SimulationResult.QueueResult> queues() {
    Map<String, QueueOutcome> outcomes = new TreeMap<>();
    lastCycle.queues().forEach(q -> outcomes.put(q.name(), q));
    ImmutableList.Builder<SimulationResult.QueueResult> out = ImmutableList.builder();
    for (QueueInfo q : world.queues()) {
      QueueOutcome outcome = outcomes.get(q.name());
      out.add(
          new SimulationResult.QueueResult(
              q.name(),
              amounts(outcome.fairShare()),
              amounts(outcome.allocated()),
              new SimulationResult.Amounts(q.gpu().quota(), q.cpu().quota(), q.memory().quota()),
              q.parent()));
    }
    return out.build();
  }

  private static SimulationResult.Amounts amounts(ResourceVector a) {
    return new SimulationResult.Amounts(a.gpus(), a.cpuMillis(), a.memoryBytes());
  }

  private ImmutableList<SimulationResult.NodeResult> nodes() {
    ImmutableList.Builder<SimulationResult.NodeResult> out = ImmutableList.builder();
    for (NodeOutcome n : lastCycle.nodes()) {
      ImmutableList.Builder<SimulationResult.SharedGpuGroup> groups = ImmutableList.builder();
      for (NodeOutcome.SharedGpuUse g : n.sharedGpuGroups()) {
        groups.add(new SimulationResult.SharedGpuGroup(g.groupId(), g.usedPortion().toDouble()));
      }
      out.add(
          new SimulationResult.NodeResult(
              n.name(), n.idleGpus(), n.releasingGpus(), n.usedGpus(), groups.build()));
    }
    return out.build();
  }
}
