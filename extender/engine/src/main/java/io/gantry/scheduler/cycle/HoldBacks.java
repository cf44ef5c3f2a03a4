package io.gantry.scheduler.cycle;

import io.gantry.scheduler.api.result.explain.Amounts;
import io.gantry.scheduler.api.result.explain.HoldBack;
import io.gantry.scheduler.api.result.explain.QueueStanding;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.framework.fit.JobNotReady;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.framework.fit.OverLimit;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import io.gantry.scheduler.framework.fit.QueueDoesNotExist;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.List;
import java.util.Optional;

/**
 * Which rule holds a waiting job back, most binding first: a queue's limit or non-preemptible quota
 * (no free node changes that), a missing queue or too few pods, the queue's fair share (the job
 * asks for more than its queue's share leaves, so it gets only what no queue under its share wants
 * and reclaim takes nothing for it), then the nodes.
 */
final class HoldBacks {
  /** Fair shares and allocations are sums of doubles; differences below this are equal. */
  private static final double EPSILON = 1e-9;

  private HoldBacks() {}

  /**
   * {@code waiting}: what the job's pending tasks ask for; {@code capacity}: what the cluster's
   * nodes have in all. A job larger than the whole cluster is held back by the nodes, whatever its
   * queue's share.
   */
  static Optional<HoldBack> of(
      List<JobFitReason> errors,
      List<QueueStanding> path,
      Resources waiting,
      ResourceVector capacity) {
    for (JobFitReason r : errors) {
      Optional<CapacityExceeded> c = capacity(r);
      if (c.isPresent()) {
        HoldBack.Kind kind =
            c.get() instanceof OverLimit
                ? HoldBack.Kind.LIMIT
                : HoldBack.Kind.NON_PREEMPTIBLE_QUOTA;
        return Optional.of(new HoldBack(kind, c.get().queue(), FitMessages.sentence(c.get())));
      }
    }
    for (JobFitReason r : errors) {
      if (r instanceof QueueDoesNotExist q) {
        return Optional.of(new HoldBack(HoldBack.Kind.QUEUE, q.queue(), FitMessages.sentence(q)));
      }
      if (r instanceof JobNotReady n) {
        return Optional.of(new HoldBack(HoldBack.Kind.NOT_READY, "", FitMessages.sentence(n)));
      }
    }
    if (errors.isEmpty()) {
      return Optional.empty();
    }
    ResourceVector asked = ResourceVector.of(waiting);
    for (QueueStanding q : path) {
      for (ResourceKind kind : ResourceKind.values()) {
        double want = asked.get(kind);
        double after = q.allocated().get(kind) + want;
        boolean clusterHoldsIt = want <= capacity.get(kind) + EPSILON;
        if (want > 0 && clusterHoldsIt && after > q.fairShare().get(kind) + EPSILON) {
          return Optional.of(
              new HoldBack(
                  HoldBack.Kind.FAIR_SHARE,
                  q.name(),
                  String.format(
                      "queue %s holds %s and this job asks %s more, over its fair share of %s:"
                          + " it runs only on resources queues under their fair share do not"
                          + " want, and reclaim takes none for it",
                      q.name(),
                      Amounts.format(kind, q.allocated().get(kind)),
                      Amounts.format(kind, want),
                      Amounts.format(kind, q.fairShare().get(kind)))));
        }
      }
    }
    for (JobFitReason r : errors) {
      if (r instanceof PodSchedulingFailure p) {
        return Optional.of(new HoldBack(HoldBack.Kind.NODES, "", FitMessages.summary(p.nodes())));
      }
    }
    return Optional.of(new HoldBack(HoldBack.Kind.OTHER, "", FitMessages.sentence(errors.get(0))));
  }

  /** The queue capacity rule {@code r} is, or that a node gave for it. */
  private static Optional<CapacityExceeded> capacity(JobFitReason r) {
    if (r instanceof CapacityExceeded c) {
      return Optional.of(c);
    }
    if (r instanceof PodSchedulingFailure p) {
      for (NoNodeFits.NodeRejection rejection : p.nodes().rejections()) {
        for (NodeFitReason reason : rejection.reasons()) {
          if (reason instanceof CapacityExceeded c) {
            return Optional.of(c);
          }
        }
      }
    }
    return Optional.empty();
  }
}
