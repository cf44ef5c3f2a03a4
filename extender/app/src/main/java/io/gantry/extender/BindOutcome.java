package io.gantry.extender;

import static java.util.Objects.requireNonNull;

/**
 * What became of a {@code bind}: the pod was bound, or it was not and kube-scheduler hears why (and
 * retries the pod). The extender protocol's answer carries the reason as its {@code error} field,
 * empty for a bound pod.
 */
public sealed interface BindOutcome permits BindOutcome.Bound, BindOutcome.BindRejected {
  /** The pod is bound to the node kube-scheduler asked for. */
  record Bound() implements BindOutcome {}

  /** The pod was not bound, and why. */
  record BindRejected(String reason) implements BindOutcome {
    public BindRejected {
      requireNonNull(reason, "reason is null");
    }
  }
}
