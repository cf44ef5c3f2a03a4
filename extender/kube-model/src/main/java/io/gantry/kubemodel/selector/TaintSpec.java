package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * A node taint. The effect is the Kubernetes spelling, the same type as {@link
 * TolerationSpec#effect()}, so the two compare directly.
 *
 * @param value "" when the taint has no value
 */
public record TaintSpec(String key, String value, String effect) {
  public static final List<String> EFFECTS =
      ImmutableList.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  public TaintSpec {
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
    requireNonNull(effect, "effect is null");
  }
}
