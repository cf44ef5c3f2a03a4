package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import java.util.List;
import java.util.Optional;

/**
 * A pod toleration, spelled as in Kubernetes.
 *
 * @param key absent tolerates every key (only with {@code Exists})
 * @param operator {@code Equal} or {@code Exists}
 * @param effect absent tolerates every effect
 */
public record TolerationSpec(
    Optional<String> key, String operator, Optional<String> value, Optional<String> effect) {
  public static final List<String> OPERATORS = ImmutableList.of("Equal", "Exists");

  public TolerationSpec {
    requireNonNull(key, "key is null");
    requireNonNull(operator, "operator is null");
    requireNonNull(value, "value is null");
    requireNonNull(effect, "effect is null");
  }

  /** The engine's toleration; the binder has checked what Kubernetes checks. */
  public Toleration toToleration() {
    return new Toleration(
        key.orElse(""),
        TolerationOperator.parse(operator),
        value.orElse(""),
        effect.map(TaintEffect::parse));
  }
}
