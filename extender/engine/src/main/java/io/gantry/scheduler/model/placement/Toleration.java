package io.gantry.scheduler.model.placement;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A pod toleration.
 *
 * @param key the taint key to tolerate; empty means every key, which Kubernetes allows only with
 *     {@link TolerationOperator#EXISTS}
 * @param value compared with the taint's value under {@link TolerationOperator#EQUAL}; ignored
 *     under {@link TolerationOperator#EXISTS}
 * @param effect the taint effect to tolerate; empty means every effect
 */
public record Toleration(
    String key, TolerationOperator operator, String value, Optional<TaintEffect> effect) {
  public Toleration {
    requireNonNull(key, "key is null");
    requireNonNull(operator, "operator is null");
    requireNonNull(value, "value is null");
    requireNonNull(effect, "effect is null");
    checkArgument(
        !key.isEmpty() || operator == TolerationOperator.EXISTS,
        "toleration key is empty, so operator must be Exists but was: %s",
        operator.k8sName());
  }

  /** Tolerates every taint: empty key, Exists, every effect. */
  public static Toleration everything() {
    return new Toleration("", TolerationOperator.EXISTS, "", Optional.empty());
  }

  /** Mirrors {@code Toleration.ToleratesTaint} in k8s.io/api/core/v1. */
  public boolean tolerates(Taint taint) {
    requireNonNull(taint, "taint is null");
    if (effect.isPresent() && effect.get() != taint.effect()) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return switch (operator) {
      case EQUAL -> value.equals(taint.value());
      case EXISTS -> true;
    };
  }
}
