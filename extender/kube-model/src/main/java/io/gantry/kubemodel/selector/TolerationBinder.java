package io.gantry.kubemodel.selector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.List;
import java.util.Optional;

/**
 * Reads Kubernetes tolerations with the checks Kubernetes makes, alike for a scenario's tasks, a
 * workload manifest's pod template and a DRA claim request's tolerations of device taints.
 */
public final class TolerationBinder {
  /** The keys of a toleration in a scenario's task. */
  public static final ImmutableSet<String> TOLERATION_KEYS =
      ImmutableSet.of("key", "operator", "value", "effect");

  /** A manifest's tolerations may also say how long a NoExecute taint is tolerated. */
  public static final ImmutableSet<String> MANIFEST_TOLERATION_KEYS =
      ImmutableSet.of("key", "operator", "value", "effect", "tolerationSeconds");

  private TolerationBinder() {}

  /** Kubernetes tolerations, each with {@code keys} only. */
  public static List<TolerationSpec> tolerations(List<Field> items, ImmutableSet<String> keys)
      throws ScenarioException {
    ImmutableList.Builder<TolerationSpec> tolerations = ImmutableList.builder();
    for (Field item : items) {
      MapReader toleration = item.asMap(keys);
      toleration.optLong("tolerationSeconds", Long.MIN_VALUE);
      Optional<String> key = toleration.optString("key").filter(k -> !k.isEmpty());
      String operator = toleration.optChoice("operator", TolerationSpec.OPERATORS).orElse("Equal");
      Optional<String> value = toleration.optString("value");
      if (operator.equals("Exists") && value.isPresent() && !value.get().isEmpty()) {
        throw toleration.required("value").error("must be empty when operator is Exists");
      }
      if (key.isEmpty() && !operator.equals("Exists")) {
        int line = toleration.optional("operator").map(Field::line).orElse(toleration.line());
        throw toleration.error(
            "operator", line, "must be Exists when key is empty (to tolerate every taint)");
      }
      tolerations.add(
          new TolerationSpec(
              key, operator, value, toleration.optChoice("effect", TaintSpec.EFFECTS)));
    }
    return tolerations.build();
  }
}
