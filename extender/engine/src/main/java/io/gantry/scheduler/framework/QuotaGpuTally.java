package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a growing set of tasks counts for in their queues' GPUs, told task by task: each task's own
 * GPUs (whole, fractional, MIG), and each shared DRA GPU claim once, when no task outside the set
 * holds it on that node any more (kai-reference §8). So evicting one of two pods that share a claim
 * frees nothing and evicting both frees it once; a task not placed adds a claim nobody holds, once
 * however many tasks of the set use it, and nothing for a claim a placed task already holds. Each
 * task is told once. Reads the session as it stands; one instance serves one sum.
 */
public final class QuotaGpuTally {
  private final SharedGpuClaims shared;
  private final Function<TaskState, GpuAmount> ownGpus;
  // made when the first task with GPU claims is told, since most sums have none; looked up, never
  // iterated
  private Map<SharedGpuClaims.OnNode, Integer> holdersSeen;
  private Set<SharedGpuClaims.OnNode> counted;

  QuotaGpuTally(SharedGpuClaims shared, Function<TaskState, GpuAmount> ownGpus) {
    this.shared = shared;
    this.ownGpus = ownGpus;
  }

  /** The GPUs the set counts for beyond what it counted before the task joined. */
  public GpuAmount add(TaskState task) {
    GpuAmount gpus = ownGpus.apply(task);
    if (shared.claims(task).isEmpty()) {
      return gpus;
    }
    if (counted == null) {
      holdersSeen = new HashMap<>();
      counted = new HashSet<>();
    }
    long devices = 0;
    Optional<String> holding = SharedGpuClaims.holdingNode(task);
    for (SharedGpuClaims.ClaimGpus c : shared.claims(task)) {
      if (holding.isPresent()) {
        SharedGpuClaims.OnNode unit = new SharedGpuClaims.OnNode(c.use(), holding.get());
        int seen = holdersSeen.merge(unit, 1, Integer::sum);
        if (seen == shared.holders(c.use(), unit.node()) && counted.add(unit)) {
          devices += c.devices();
        }
        continue;
      }
      Optional<String> node = task.nodeName();
      boolean heldElsewhere =
          node.isPresent() ? shared.holders(c.use(), node.get()) > 0 : shared.held(c.use());
      if (!heldElsewhere && counted.add(new SharedGpuClaims.OnNode(c.use(), node.orElse("")))) {
        devices += c.devices();
      }
    }
    return devices == 0 ? gpus : gpus.plus(GpuAmount.ofDevices(devices));
  }

  /** Adds every task; returns what they count for together beyond what the set counted before. */
  public GpuAmount addAll(Iterable<TaskState> tasks) {
    GpuAmount sum = GpuAmount.ZERO;
    for (TaskState t : tasks) {
      sum = sum.plus(add(t));
    }
    return sum;
  }
}
