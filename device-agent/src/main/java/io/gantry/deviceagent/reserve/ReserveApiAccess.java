package io.gantry.deviceagent.reserve;

import com.google.common.collect.ImmutableList;
import io.gantry.nodecommon.kube.ApiAccessRule;

/**
 * Every API call {@code gantry-device-agent reserve} makes, in RBAC's terms: it patches its own pod
 * ({@link ReservationPod}), nothing else. The chart grants exactly this, in the reservation
 * namespace only, and an admission policy holds the service account to the pod it runs as (RBAC
 * cannot name a pod whose name is chosen later); the chart's RBAC test checks both.
 */
public final class ReserveApiAccess {
  /** The {@code User-Agent} of the reservation pod's requests. */
  public static final String USER_AGENT = "gantry-reservation";

  public static final ImmutableList<ApiAccessRule> RULES =
      ImmutableList.of(ApiAccessRule.of("", "pods", "patch"));

  private ReserveApiAccess() {}
}
