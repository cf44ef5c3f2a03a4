package io.gantry.scheduler.kube.access;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedSet;

/**
 * One RBAC rule a component needs: an API group ({@code ""} for the core group), a resource with
 * its subresource ({@code pods/binding}), the verbs, and whether it is granted cluster-wide or only
 * in the component's own namespace. The chart grants exactly these; the end-to-end tests check that
 * the code calls nothing else.
 */
public record ApiRule(
    String group, String resource, ImmutableSortedSet<String> verbs, Scope scope) {

  /** Where the rule is granted. */
  public enum Scope {
    /** A ClusterRole: every namespace, and cluster-scoped objects. */
    CLUSTER,
    /** A Role in the namespace the component runs in (its Lease, its own objects). */
    OWN_NAMESPACE
  }

  public ApiRule {
    requireNonNull(group, "group is null");
    requireNonNull(resource, "resource is null");
    requireNonNull(verbs, "verbs is null");
    requireNonNull(scope, "scope is null");
    if (verbs.isEmpty()) {
      throw new IllegalArgumentException(
          "a rule needs at least one verb: " + group + " " + resource);
    }
  }

  public static ApiRule cluster(String group, String resource, String... verbs) {
    return new ApiRule(group, resource, ImmutableSortedSet.copyOf(verbs), Scope.CLUSTER);
  }

  public static ApiRule ownNamespace(String group, String resource, String... verbs) {
    return new ApiRule(group, resource, ImmutableSortedSet.copyOf(verbs), Scope.OWN_NAMESPACE);
  }

  /** Whether this rule allows {@code verb} on {@code resource} of {@code group}. */
  public boolean allows(String group, String resource, String verb) {
    return this.group.equals(group) && this.resource.equals(resource) && verbs.contains(verb);
  }
}
