package io.gantry.scheduler.cycle;

import io.gantry.scheduler.api.dra.DraGpuClaims;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.dra.DynamicResources;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The DRA GPU devices each node holds at the end of a cycle. A node's GPU count is its device
 * plugin's ({@code nvidia.com/gpu}); GPUs a DRA driver publishes in ResourceSlices are not in it,
 * so without this a node whose pods hold DRA GPUs shows none used while its queue shows them
 * allocated. Each GPU claim counts once on its node however many of the node's pods share it, as
 * the queue's allocation counts it (kai-reference §8). Maps are looked up, never iterated.
 */
final class NodeDraGpus {
  private final Map<String, Long> used;

  private NodeDraGpus(Session session) {
    this.used = count(session, session.snapshot().dynamicResources());
  }

  static NodeDraGpus of(Session session) {
    return new NodeDraGpus(session);
  }

  /** GPU devices of the claims held by tasks allocated on the node. */
  long used(String node) {
    return used.getOrDefault(node, 0L);
  }

  private static Map<String, Long> count(Session session, DynamicResources resources) {
    Map<String, Set<String>> claimsSeen = new HashMap<>();
    Map<String, Long> devices = new HashMap<>();
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.info().resourceClaims().isEmpty()
            || !task.status().isAllocated()
            || task.nodeName().isEmpty()) {
          continue;
        }
        String node = task.nodeName().get();
        Set<String> seen = claimsSeen.computeIfAbsent(node, n -> new HashSet<>());
        DraGpuClaims.gpuClaims(task.info(), resources)
            .forEach(
                (claim, count) -> {
                  if (seen.add(claim)) {
                    devices.merge(node, count, Long::sum);
                  }
                });
      }
    }
    return devices;
  }
}
