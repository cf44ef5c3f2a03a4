package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceVector;
import java.util.Optional;

/**
 * Why a pod is evicted, as a value (kai-reference §4.7–4.10); {@link FitMessages#eviction} writes
 * KAI's sentence. Pods and workloads are named {@code namespace/name}.
 */
public sealed interface EvictionReason
    permits EvictionReason.Reclaimed,
        EvictionReason.Preempted,
        EvictionReason.Consolidated,
        EvictionReason.GangBelowMinimum {

  /**
   * Reclaimed for a workload of another queue; the two queues quoted are the reclaimee's and the
   * reclaimer's (their parents when they are not siblings), as they stood before the eviction.
   */
  record Reclaimed(
      String pod,
      String reclaimer,
      Optional<QueueState> reclaimeeQueue,
      Optional<QueueState> reclaimerQueue)
      implements EvictionReason {
    public Reclaimed {
      requireNonNull(pod, "pod is null");
      requireNonNull(reclaimer, "reclaimer is null");
      requireNonNull(reclaimeeQueue, "reclaimeeQueue is null");
      requireNonNull(reclaimerQueue, "reclaimerQueue is null");
    }
  }

  /** Preempted by a higher-priority workload of the same queue. */
  record Preempted(String pod, String preemptor) implements EvictionReason {
    public Preempted {
      requireNonNull(pod, "pod is null");
      requireNonNull(preemptor, "preemptor is null");
    }
  }

  /** Moved to another node to make room (consolidation). */
  record Consolidated(String pod) implements EvictionReason {
    public Consolidated {
      requireNonNull(pod, "pod is null");
    }
  }

  /** Its gang stayed below {@code minMember} (of {@code subGroup}, when named) too long. */
  record GangBelowMinimum(String pod, long minMember, Optional<String> subGroup)
      implements EvictionReason {
    public GangBelowMinimum {
      requireNonNull(pod, "pod is null");
      requireNonNull(subGroup, "subGroup is null");
    }
  }

  /**
   * A queue's amounts as a reclaim message quotes them: GPU devices, CPU millicores, memory bytes;
   * -1 unlimited.
   */
  record QueueState(
      String queue,
      ResourceVector allocated,
      ResourceVector deserved,
      ResourceVector fairShare,
      int priority) {
    public QueueState {
      requireNonNull(queue, "queue is null");
      requireNonNull(allocated, "allocated is null");
      requireNonNull(deserved, "deserved is null");
      requireNonNull(fairShare, "fairShare is null");
    }
  }
}
