package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import java.util.List;
import java.util.Optional;

/**
 * Whether a pod's tolerations let it onto a node, as kube-scheduler's TaintToleration filter
 * ({@code v1helper.FindMatchingUntoleratedTaint} with {@code DoNotScheduleTaintsFilterFunc}).
 * PreferNoSchedule taints never block; they only lower a node's score.
 */
public final class TaintTolerationRule {
  private TaintTolerationRule() {}

  /**
   * The first NoSchedule or NoExecute taint, in the node's order, that no toleration tolerates;
   * empty when the pod may be placed. The node's order is kept so the reported taint is the one
   * kube-scheduler would report.
   */
  public static Optional<Taint> firstUntolerated(
      List<Taint> nodeTaints, List<Toleration> tolerations) {
    requireNonNull(nodeTaints, "nodeTaints is null");
    requireNonNull(tolerations, "tolerations is null");
    for (Taint taint : nodeTaints) {
      if (taint.effect() == TaintEffect.PREFER_NO_SCHEDULE) {
        continue;
      }
      if (!isTolerated(taint, tolerations)) {
        return Optional.of(taint);
      }
    }
    return Optional.empty();
  }

  private static boolean isTolerated(Taint taint, List<Toleration> tolerations) {
    for (Toleration toleration : tolerations) {
      if (toleration.tolerates(taint)) {
        return true;
      }
    }
    return false;
  }
}
