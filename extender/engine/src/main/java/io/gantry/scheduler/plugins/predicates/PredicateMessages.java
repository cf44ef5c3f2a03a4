package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.placement.Taint;

/**
 * Fit-failure sentences in kube-scheduler's exact wording, so that users, dashboards and {@code
 * kubectl describe pod} events read the same whichever scheduler placed the pod. Golden tests pin
 * the text; change it only together with kube-scheduler.
 */
public final class PredicateMessages {
  /** kube-scheduler NodeAffinity's {@code ErrReasonPod}. */
  public static final String NODE_AFFINITY_MISMATCH =
      "node(s) didn't match Pod's node affinity/selector";

  /** kube-scheduler NodeUnschedulable's {@code ErrReasonUnschedulable}. */
  public static final String NODE_UNSCHEDULABLE = "node(s) were unschedulable";

  /** The legacy CheckNodeCondition predicate's {@code ErrNodeNotReady}. */
  public static final String NODE_NOT_READY = "node(s) were not ready";

  /** KAI's NodePodNumberExceeded: the node already runs its maximum number of pods. */
  public static final String POD_NUMBER_EXCEEDED = "node(s) pod number exceeded";

  /** kube-scheduler InterPodAffinity's {@code ErrReasonAffinityRulesNotMatch}. */
  public static final String POD_AFFINITY_MISMATCH = "node(s) didn't match pod affinity rules";

  /** kube-scheduler InterPodAffinity's {@code ErrReasonAntiAffinityRulesNotMatch}. */
  public static final String POD_ANTI_AFFINITY_MISMATCH =
      "node(s) didn't match pod anti-affinity rules";

  /** kube-scheduler InterPodAffinity's {@code ErrReasonExistingAntiAffinityRulesNotMatch}. */
  public static final String EXISTING_POD_ANTI_AFFINITY_MISMATCH =
      "node(s) didn't satisfy existing pods anti-affinity rules";

  private PredicateMessages() {}

  /**
   * kube-scheduler TaintToleration's reason, which prints only key and value (not the effect) as
   * {@code {key: value}}, with an empty value left empty.
   */
  public static String untoleratedTaint(Taint taint) {
    requireNonNull(taint, "taint is null");
    return "node(s) had untolerated taint {" + taint.key() + ": " + taint.value() + "}";
  }
}
