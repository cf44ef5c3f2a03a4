package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.kube.NodePods;
import io.kubernetes.client.openapi.ApiException;

/** One round of MPS upkeep: the daemons follow the MPS pods live on this node. */
public final class MpsWatch {
  private final NodePods pods;
  private final MpsDaemons daemons;

  public MpsWatch(NodePods pods, MpsDaemons daemons) {
    this.pods = requireNonNull(pods, "pods is null");
    this.daemons = requireNonNull(daemons, "daemons is null");
  }

  /**
   * Lists the node's pods and reconciles the daemons with their MPS allocations.
   *
   * @throws ApiException when the pods cannot be listed (the daemons are left as they are)
   */
  public void runOnce() throws ApiException {
    daemons.reconcile(MpsPods.wantedOf(pods.live(), pods.nodeName()));
  }
}
