package io.gantry.dradriver.kube;

import com.google.common.collect.ImmutableList;
import io.gantry.nodecommon.kube.ApiAccessRule;

/**
 * Every API call the driver makes, in RBAC's terms, kept next to the calls: the chart grants the
 * driver's ServiceAccount exactly these (cluster-wide), and the end-to-end test checks that the
 * calls the driver really makes, told apart by {@link #USER_AGENT}, are all listed here.
 */
public final class DraDriverApiAccess {
  /** The {@code User-Agent} of the driver's API requests. */
  public static final String USER_AGENT = "gantry-dra-driver";

  /**
   * ResourceSlices: list this node's, create, replace and delete them ({@code
   * ResourceSlicePublisher}); ResourceClaims: get the claim being prepared ({@code ClaimReader});
   * nodes: get this node's UID for the slice's owner reference.
   */
  public static final ImmutableList<ApiAccessRule> RULES =
      ImmutableList.of(
          ApiAccessRule.of(
              "resource.k8s.io", "resourceslices", "list", "create", "update", "delete"),
          ApiAccessRule.of("resource.k8s.io", "resourceclaims", "get"),
          ApiAccessRule.of("", "nodes", "get"));

  private DraDriverApiAccess() {}
}
