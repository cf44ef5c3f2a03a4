package io.gantry.scheduler.kube.snapshot;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.QueueDefaults;
import io.gantry.scheduler.api.config.GoDuration;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiQueueQuota;
import io.gantry.scheduler.kube.crd.KaiQueueResources;
import io.gantry.scheduler.kube.crd.KaiQueueSpec;
import io.gantry.scheduler.model.QueueHierarchy;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Queues as the engine's {@link QueueInfo}s, with KAI's reading of each field ({@link
 * QueueDefaults}), oldest first (then by name), and without orphans: a queue whose parent does not
 * exist is dropped with its whole subtree (kai-reference §4.1).
 */
public final class QueueReader {
  private QueueReader() {}

  public static ImmutableList<QueueInfo> read(List<KaiQueue> queues) {
    List<KaiQueue> sorted = sorted(queues);
    QueueHierarchy hierarchy = hierarchy(sorted);
    ImmutableList.Builder<QueueInfo> out = ImmutableList.builder();
    long order = 0;
    for (KaiQueue q : sorted) {
      if (hierarchy.parentProblem(q.getMetadata().getName()).isEmpty()) {
        out.add(info(q, order++));
      }
    }
    return out.build();
  }

  /** Every queue with its parent, orphans included, in the order of {@link #read}. */
  public static QueueHierarchy hierarchy(List<KaiQueue> queues) {
    ImmutableMap.Builder<String, Optional<String>> parents = ImmutableMap.builder();
    for (KaiQueue q : sorted(queues)) {
      parents.put(q.getMetadata().getName(), parent(q));
    }
    return new QueueHierarchy(parents.buildKeepingLast());
  }

  private static List<KaiQueue> sorted(List<KaiQueue> queues) {
    List<KaiQueue> sorted = new ArrayList<>(queues);
    sorted.sort(
        Comparator.comparing(QueueReader::created).thenComparing(q -> q.getMetadata().getName()));
    return sorted;
  }

  private static Optional<String> parent(KaiQueue q) {
    return Optional.ofNullable(q.spec()).map(KaiQueueSpec::parentQueue).filter(p -> !p.isEmpty());
  }

  private static Instant created(KaiQueue q) {
    return q.getMetadata().getCreationTimestamp() == null
        ? Instant.EPOCH
        : q.getMetadata().getCreationTimestamp().toInstant();
  }

  private static QueueInfo info(KaiQueue q, long order) {
    KaiQueueSpec spec = q.spec();
    KaiQueueResources r = spec == null ? null : spec.resources();
    return new QueueInfo(
        q.getMetadata().getName(),
        parent(q),
        QueueDefaults.priority(
            spec == null || spec.priority() == null
                ? OptionalInt.empty()
                : OptionalInt.of(spec.priority())),
        resource(r == null ? null : r.gpu(), ResourceKind.GPU),
        resource(r == null ? null : r.cpu(), ResourceKind.CPU),
        resource(r == null ? null : r.memory(), ResourceKind.MEMORY),
        duration(spec == null ? null : spec.preemptMinRuntime()),
        duration(spec == null ? null : spec.reclaimMinRuntime()),
        order);
  }

  private static QueueResource resource(KaiQueueQuota quota, ResourceKind kind) {
    if (quota == null) {
      return QueueDefaults.absent();
    }
    return QueueDefaults.resource(
        kind, optional(quota.quota()), optional(quota.overQuotaWeight()), optional(quota.limit()));
  }

  private static OptionalDouble optional(Double d) {
    return d == null ? OptionalDouble.empty() : OptionalDouble.of(Math.max(-1, d));
  }

  private static Optional<Duration> duration(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(GoDuration.parse(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
