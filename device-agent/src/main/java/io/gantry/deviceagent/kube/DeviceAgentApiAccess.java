package io.gantry.deviceagent.kube;

import com.google.common.collect.ImmutableList;
import io.gantry.nodecommon.kube.ApiAccessRule;

/**
 * Every API call the device agent makes, in RBAC's terms, kept next to the calls: the chart grants
 * the agent's ServiceAccount exactly these (cluster-wide), and the end-to-end tests check that the
 * calls the agent really makes, told apart by {@link #USER_AGENT}, are all listed here.
 */
public final class DeviceAgentApiAccess {
  /** The {@code User-Agent} of the agent's API requests. */
  public static final String USER_AGENT = "gantry-device-agent";

  /**
   * Nodes: get and patch this node's inventory annotation and labels ({@code
   * NodeInventoryPublisher}); pods: list the pods bound here and patch them ({@code NodePods},
   * {@code PodEnforcer}), and watch them for MPS in reservation-pods mode ({@code MpsPodWatch});
   * events: create warnings ({@code NodeEvents}, {@code WarningEvents}).
   */
  public static final ImmutableList<ApiAccessRule> RULES =
      ImmutableList.of(
          ApiAccessRule.of("", "nodes", "get", "patch"),
          ApiAccessRule.of("", "pods", "list", "watch", "patch"),
          ApiAccessRule.of("", "events", "create"));

  /** Evicting a pod over its GPU memory grant ({@code PodEnforcer}, {@code --evict-over-grant}). */
  public static final ApiAccessRule EVICTION = ApiAccessRule.of("", "pods/eviction", "create");

  private DeviceAgentApiAccess() {}
}
