package io.gantry.nodecommon.kube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedSet;

/**
 * One RBAC rule a node component needs, cluster-wide: API group ({@code ""} for core), resource and
 * verbs. The node components keep their lists of these next to their calls; the chart grants
 * exactly them and their end-to-end tests check every call made is listed.
 */
public record ApiAccessRule(String group, String resource, ImmutableSortedSet<String> verbs) {
  public ApiAccessRule {
    requireNonNull(group, "group is null");
    requireNonNull(resource, "resource is null");
    requireNonNull(verbs, "verbs is null");
  }

  public static ApiAccessRule of(String group, String resource, String... verbs) {
    return new ApiAccessRule(group, resource, ImmutableSortedSet.copyOf(verbs));
  }

  public boolean allows(String group, String resource, String verb) {
    return this.group.equals(group) && this.resource.equals(resource) && verbs.contains(verb);
  }
}
