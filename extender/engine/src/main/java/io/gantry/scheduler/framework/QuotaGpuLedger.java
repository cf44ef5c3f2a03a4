package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuMemoryRange;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.NodeInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The GPUs tasks count for in their queues (kai-reference §5.2) and which task holds each shared
 * DRA GPU claim (§8). A task's own GPUs are whole, fractional or MIG; a memory request of a task
 * not placed converts with the smallest GPU node's device memory for fair share and the largest for
 * limit checks. A shared claim counts once per queue and node however many pods hold it, so {@link
 * TaskMoves} tells the ledger every time a task starts or stops counting as allocated ({@link
 * #hold}, {@link #release}), and sums of several tasks go through a {@link QuotaGpuTally}.
 * Single-threaded.
 */
final class QuotaGpuLedger {
  private final GpuMemoryRange gpuMemoryRange;
  private final SharedGpuClaims sharedClaims;

  // made once: every job pass sums its tasks through a tally
  private final Function<TaskState, GpuAmount> ownQuotaGpus = this::ownQuotaGpus;
  private final Function<TaskState, GpuAmount> ownLimitCheckGpus = this::ownLimitCheckGpus;

  QuotaGpuLedger(ClusterSnapshot snapshot) {
    List<Long> gpuNodeMemoriesMib = new ArrayList<>();
    for (NodeInfo n : snapshot.nodes()) {
      if (n.gpuCount() > 0) {
        gpuNodeMemoriesMib.add(n.gpuMemoryMib());
      }
    }
    this.gpuMemoryRange = GpuMemoryRange.over(gpuNodeMemoriesMib);
    this.sharedClaims = new SharedGpuClaims(snapshot.dynamicResources());
  }

  /** Smallest per-device GPU memory among GPU nodes; converts memory requests for fair share. */
  long minNodeGpuMemoryMib() {
    return gpuMemoryRange.minMib();
  }

  /** Largest per-device GPU memory among GPU nodes; converts memory requests for limit checks. */
  long maxNodeGpuMemoryMib() {
    return gpuMemoryRange.maxMib();
  }

  /**
   * The task now counts as allocated on {@code node}: it holds its claims there. Returns the GPUs
   * its queue gains: its own, and the claims' devices it is first to hold.
   */
  GpuAmount hold(TaskState task, String node) {
    long claimDevicesAdded = sharedClaims.hold(task, node);
    return ownQuotaGpus(task).plus(GpuAmount.ofDevices(claimDevicesAdded));
  }

  /**
   * The task stops counting as allocated on {@code node}; call before it moves, since its own
   * portion is read where it is. Returns the GPUs its queue loses: its own, and the claims' devices
   * it was last to hold.
   */
  GpuAmount release(TaskState task, String node) {
    long claimDevicesFreed = sharedClaims.release(task, node);
    return ownQuotaGpus(task).plus(GpuAmount.ofDevices(claimDevicesFreed));
  }

  /** See {@link SessionView#quotaGpus(TaskState)}. */
  GpuAmount quotaGpus(TaskState task) {
    if (task.info().resourceClaims().isEmpty()) {
      return ownQuotaGpus(task);
    }
    return quotaGpuTally().add(task);
  }

  /** See {@link SessionView#quotaGpus(Collection)}. */
  GpuAmount quotaGpus(Collection<TaskState> tasks) {
    return sum(tasks, ownQuotaGpus);
  }

  /**
   * GPUs pending tasks count for together in limit checks (memory converted with the largest node);
   * a DRA GPU claim a placed task already holds needs no room.
   */
  GpuAmount limitCheckGpus(Collection<TaskState> tasks) {
    return sum(tasks, ownLimitCheckGpus);
  }

  /**
   * The tasks' {@code own} GPUs and their shared claims counted once; asked for every job pass, and
   * only tasks with claims need a tally to count them.
   */
  private GpuAmount sum(Collection<TaskState> tasks, Function<TaskState, GpuAmount> own) {
    GpuAmount sum = GpuAmount.ZERO;
    for (TaskState t : tasks) {
      if (!t.info().resourceClaims().isEmpty()) {
        return new QuotaGpuTally(sharedClaims, own).addAll(tasks);
      }
      sum = sum.plus(own.apply(t));
    }
    return sum;
  }

  /** An empty sum of {@link #quotaGpus(TaskState)} that counts each shared claim once. */
  QuotaGpuTally quotaGpuTally() {
    return new QuotaGpuTally(sharedClaims, ownQuotaGpus);
  }

  /**
   * GPUs placed tasks hold together: each its own, and each DRA GPU claim once per queue and node
   * however many of them use it. What a queue's usage shows.
   */
  GpuAmount heldGpus(Collection<TaskState> placed) {
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

  /** The shared-claim holder counts, for tests that recount them from scratch. */
  SharedGpuClaims sharedClaims() {
    return sharedClaims;
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
}
