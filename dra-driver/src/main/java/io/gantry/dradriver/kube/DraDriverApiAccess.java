package io.gantry.dradriver.kube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;

/**
 * Every API call the driver makes, in RBAC's terms, kept next to the calls: the chart grants the
 * driver's ServiceAccount exactly these (cluster-wide), and the end-to-end test checks that the
 * calls the driver really makes, told apart by {@link #USER_AGENT}, are all listed here.
 */
public final class DraDriverApiAccess {
  /** The {@code User-Agent} of the driver's API requests. */
  public static final String USER_AGENT = "gantry-dra-driver";

  /** One needed rule: API group ({@code ""} for core), resource and verbs. */
  public record Rule(String group, String resource, ImmutableSortedSet<String> verbs) {
    public Rule {
      requireNonNull(group, "group is null");
      requireNonNull(resource, "resource is null");
      requireNonNull(verbs, "verbs is null");
    }

    public boolean allows(String group, String resource, String verb) {
      return this.group.equals(group) && this.resource.equals(resource) && verbs.contains(verb);
    }
  }

  /**
   * ResourceSlices: list this node's, create, replace and delete them ({@code
   * ResourceSlicePublisher}); ResourceClaims: get the claim being prepared ({@code ClaimReader});
   * nodes: get this node's UID for the slice's owner reference.
   */
  public static final ImmutableList<Rule> RULES =
      ImmutableList.of(
          rule("resource.k8s.io", "resourceslices", "list", "create", "update", "delete"),
          rule("resource.k8s.io", "resourceclaims", "get"),
          rule("", "nodes", "get"));

  private DraDriverApiAccess() {}

  private static Rule rule(String group, String resource, String... verbs) {
    return new Rule(group, resource, ImmutableSortedSet.copyOf(verbs));
  }
}
