package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodAllocation;
import io.kubernetes.client.openapi.ApiException;
import java.util.List;
import java.util.Optional;

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
    List<PodAllocation> live =
        pods.live().stream().map(PodAllocation::of).flatMap(Optional::stream).toList();
    daemons.reconcile(MpsPods.wanted(live, pods.nodeName()));
  }
}
