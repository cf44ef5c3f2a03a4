package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.util.Optional;

/**
 * KAI's optional "default configs per type" ConfigMap (key {@code types}): a default priority class
 * and preemptibility per workload type, keyed {@code Kind.group} (for example {@code
 * Deployment.apps}) or, for any group, {@code Kind}. A type's default applies after the labels of
 * the owners and the pod, before the kind's own default (kai-reference §3.3).
 */
public record WorkloadTypeDefaults(ImmutableMap<String, TypeDefault> byType) {
  public static final WorkloadTypeDefaults NONE = new WorkloadTypeDefaults(ImmutableMap.of());

  public WorkloadTypeDefaults {
    requireNonNull(byType, "byType is null");
  }

  /** One entry: {@code priorityName} and {@code preemptibility}, each possibly empty. */
  public record TypeDefault(Optional<String> priorityClassName, Optional<String> preemptibility) {
    public TypeDefault {
      requireNonNull(priorityClassName, "priorityClassName is null");
      requireNonNull(preemptibility, "preemptibility is null");
    }
  }

  /** The entry for a type: by {@code Kind.group} first, then by {@code Kind}. */
  public Optional<TypeDefault> forType(String group, String kind) {
    if (kind.isEmpty()) {
      return Optional.empty();
    }
    String groupKind = group.isEmpty() ? kind : kind + "." + group;
    TypeDefault exact = byType.get(groupKind);
    return exact != null ? Optional.of(exact) : Optional.ofNullable(byType.get(kind));
  }
}
