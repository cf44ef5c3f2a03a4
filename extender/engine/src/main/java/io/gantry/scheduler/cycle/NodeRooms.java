package io.gantry.scheduler.cycle;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.result.explain.Amounts;
import io.gantry.scheduler.api.result.explain.NodeRoom;
import io.gantry.scheduler.api.result.explain.ReasonCount;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.FitReason;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nodes' side of an explanation: how many nodes refused the job's task for each reason, and the
 * nodes closest to taking it with what each lacks.
 */
final class NodeRooms {
  /** How many nodes an explanation lists. */
  static final int CLOSEST = 3;

  private NodeRooms() {}

  /**
   * Per node fit sentence, how many nodes gave it. A job tried more than once reports, per reason,
   * the most nodes one attempt counted. Most nodes first, then by sentence.
   */
  static ImmutableList<ReasonCount> reasons(List<JobFitReason> errors) {
    Map<String, Long> most = new TreeMap<>();
    for (JobFitReason r : errors) {
      if (r instanceof PodSchedulingFailure p) {
        Map<String, Long> attempt = new TreeMap<>();
        for (NoNodeFits.NodeRejection rejection : p.nodes().rejections()) {
          for (NodeFitReason reason : rejection.reasons()) {
            attempt.merge(FitMessages.sentence(reason), (long) rejection.nodes(), Long::sum);
          }
        }
        attempt.forEach((reason, n) -> most.merge(reason, n, Math::max));
      }
    }
    List<ReasonCount> out = new ArrayList<>();
    most.forEach((reason, n) -> out.add(new ReasonCount(reason, n)));
    out.sort(Comparator.comparingLong(ReasonCount::nodes).reversed());
    return ImmutableList.copyOf(out);
  }

  /**
   * The nodes that hold the most copies of {@code task} after the cycle (idle or releasing
   * resources), then those short of the fewest resources by the smallest share of the request: what
   * each lacks is a resource with the amount missing, or a reason the engine gave for that node.
   */
  static ImmutableList<NodeRoom> closest(
      Session session, TaskState task, List<JobFitReason> errors) {
    Map<String, List<String>> named = namedReasons(errors);
    ResourceVector need = ResourceVector.of(task.info().request());
    List<Scored> scored = new ArrayList<>();
    for (NodeState n : session.nodes()) {
      ResourceVector free = ResourceVector.of(n.idleOrReleasing());
      long fit = n.freePodSlots();
      double shortShare = 0;
      List<String> lacks = new ArrayList<>();
      for (ResourceKind kind : ResourceKind.values()) {
        double want = need.get(kind);
        if (want <= 0) {
          continue;
        }
        double have = Math.max(0, free.get(kind));
        fit = Math.min(fit, (long) Math.floor(have / want + 1e-9));
        if (want > have) {
          lacks.add(Amounts.format(kind, want - have) + " short");
          shortShare += (want - have) / want;
        }
      }
      List<String> reasons = named.getOrDefault(n.name(), List.of());
      if (!reasons.isEmpty()) {
        fit = 0;
        lacks.addAll(reasons);
      }
      scored.add(
          new Scored(new NodeRoom(n.name(), free, fit, ImmutableList.copyOf(lacks)), shortShare));
    }
    scored.sort(
        Comparator.comparingLong((Scored s) -> s.room().tasksFit())
            .reversed()
            .thenComparingInt(s -> s.room().lacks().size())
            .thenComparingDouble(Scored::shortShare)
            .thenComparing(s -> s.room().node()));
    return scored.stream()
        .limit(CLOSEST)
        .map(Scored::room)
        .collect(ImmutableList.toImmutableList());
  }

  private record Scored(NodeRoom room, double shortShare) {}

  /**
   * For each node the engine named in a rejection, the reasons other than a resource short (those
   * are measured), as KAI's sentences.
   */
  private static Map<String, List<String>> namedReasons(List<JobFitReason> errors) {
    Map<String, List<String>> out = new TreeMap<>();
    for (JobFitReason r : errors) {
      if (r instanceof PodSchedulingFailure p) {
        for (NoNodeFits.NodeRejection rejection : p.nodes().rejections()) {
          for (NodeFitReason reason : rejection.reasons()) {
            if (reason.kind() != FitReason.Kind.INSUFFICIENT_RESOURCE) {
              List<String> list = out.computeIfAbsent(rejection.node(), k -> new ArrayList<>());
              String sentence = FitMessages.sentence(reason);
              if (!list.contains(sentence)) {
                list.add(sentence);
              }
            }
          }
        }
      }
    }
    return out;
  }
}
