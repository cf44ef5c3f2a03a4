package io.gantry.scheduler.model.placement;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A node taint. {@code value} may be empty, as in Kubernetes; {@code key} may not.
 *
 * <p>{@link #toString()} uses kubectl's {@code key=value:Effect} form so logs read like {@code
 * kubectl describe node}; the scheduler's fit message uses kube-scheduler's {@code {key: value}}
 * form instead and is produced by {@code FitMessages}.
 */
public record Taint(String key, String value, TaintEffect effect) {
  public Taint {
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
    requireNonNull(effect, "effect is null");
    checkArgument(!key.isEmpty(), "taint key is empty");
  }

  @Override
  public String toString() {
    return value.isEmpty()
        ? key + ":" + effect.k8sName()
        : key + "=" + value + ":" + effect.k8sName();
  }
}
