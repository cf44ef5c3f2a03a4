package io.gantry.scheduler.cycle;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.explain.OrderedJob;
import io.gantry.scheduler.api.result.explain.PendingJobOrder;
import io.gantry.scheduler.api.result.explain.QueueStanding;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The queue tree as {@code gantry queues} shows it: parents before their children, each queue with
 * its configured quota and limit, the session's fair share and allocation, and its subtree's
 * waiting jobs in allocation order.
 */
final class QueueStandings {
  private QueueStandings() {}

  static ImmutableList<QueueStanding> of(
      Session session, PendingJobOrder order, List<QueueOutcome> outcomes) {
    List<QueueInfo> queues = session.snapshot().queues();
    Map<String, QueueInfo> byName = new TreeMap<>();
    queues.forEach(q -> byName.put(q.name(), q));
    Map<String, QueueOutcome> outcome = new TreeMap<>();
    outcomes.forEach(o -> outcome.put(o.name(), o));
    Map<String, Integer> pending = new TreeMap<>();
    for (JobState job : session.jobs()) {
      if (job.hasPendingTasks()) {
        for (String q : ancestry(job.info().queue(), byName)) {
          pending.merge(q, 1, Integer::sum);
        }
      }
    }
    Map<String, List<String>> first = new TreeMap<>();
    for (OrderedJob j : order.global()) {
      for (String q : ancestry(j.queue(), byName)) {
        List<String> names = first.computeIfAbsent(q, k -> new ArrayList<>());
        if (names.size() < Explainer.FIRST_PENDING) {
          names.add(j.jobId());
        }
      }
    }
    ImmutableList.Builder<QueueStanding> out = ImmutableList.builder();
    for (QueueInfo q : queues) {
      if (q.parent().isEmpty() || !byName.containsKey(q.parent().get())) {
        add(q, 0, queues, outcome, pending, first, out);
      }
    }
    return out.build();
  }

  /** {@code q} then its children, in snapshot order, depth first. */
  private static void add(
      QueueInfo q,
      int depth,
      List<QueueInfo> queues,
      Map<String, QueueOutcome> outcome,
      Map<String, Integer> pending,
      Map<String, List<String>> first,
      ImmutableList.Builder<QueueStanding> out) {
    Optional<QueueOutcome> o = Optional.ofNullable(outcome.get(q.name()));
    out.add(
        new QueueStanding(
            q.name(),
            q.parent(),
            depth,
            vector(q, QueueResource::quota),
            o.map(QueueOutcome::fairShare).orElse(ResourceVector.ZERO),
            o.map(QueueOutcome::allocated).orElse(ResourceVector.ZERO),
            vector(q, QueueResource::limit),
            pending.getOrDefault(q.name(), 0),
            ImmutableList.copyOf(first.getOrDefault(q.name(), List.of()))));
    for (QueueInfo child : queues) {
      if (child.parent().equals(Optional.of(q.name()))) {
        add(child, depth + 1, queues, outcome, pending, first, out);
      }
    }
  }

  private static ResourceVector vector(QueueInfo q, ToDoubleFunction<QueueResource> side) {
    ResourceVector v = ResourceVector.ZERO;
    for (ResourceKind kind : ResourceKind.values()) {
      v = v.with(kind, side.applyAsDouble(q.resource(kind)));
    }
    return v;
  }

  /** The leaf and every ancestor the snapshot has. */
  private static List<String> ancestry(String leaf, Map<String, QueueInfo> byName) {
    List<String> out = new ArrayList<>();
    Optional<QueueInfo> q = Optional.ofNullable(byName.get(leaf));
    while (q.isPresent()) {
      out.add(q.get().name());
      q = q.get().parent().map(byName::get);
    }
    return out;
  }
}
