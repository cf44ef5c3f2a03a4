package io.gantry.scheduler.kube.kaisnapshot;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.kube.snapshot.InFlightBind;
import io.gantry.scheduler.kube.snapshot.InFlightBinds;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot's BindRequests as the binds in flight the live scheduler keeps: KAI decided the pod's
 * node and the binder has not bound it yet, so the pod counts as {@code Binding} on {@code
 * selectedNode}, holding its GPU groups (kai-reference §2.3, §4.2). A failed BindRequest is not in
 * flight (KAI deletes it and the pod is pending again); one whose owner is another pod of the same
 * name (a pod recreated since) does not match the pod.
 */
final class BindRequestsInFlight implements InFlightBinds {
  private final ImmutableMap<String, InFlightBind> byPod;

  private BindRequestsInFlight(ImmutableMap<String, InFlightBind> byPod) {
    this.byPod = byPod;
  }

  /** The BindRequests of {@code requests} in flight for {@code pods}. */
  static BindRequestsInFlight of(List<KaiBindRequest> requests, List<V1Pod> pods) {
    ImmutableMap.Builder<String, String> uids = ImmutableMap.builder();
    for (V1Pod p : pods) {
      if (p.getMetadata().getUid() != null) {
        uids.put(
            p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(),
            p.getMetadata().getUid());
      }
    }
    ImmutableMap<String, String> uidByPod = uids.buildKeepingLast();
    ImmutableMap.Builder<String, InFlightBind> out = ImmutableMap.builder();
    for (KaiBindRequest r : requests) {
      String uid = r.podUid().orElse(uidByPod.get(r.podKey()));
      if (r.failed() || uid == null) {
        continue;
      }
      out.put(
          r.podKey(),
          new InFlightBind(uid, r.selectedNode(), r.gpuGroups(), r.portion(), ImmutableList.of()));
    }
    return new BindRequestsInFlight(out.buildKeepingLast());
  }

  @Override
  public Optional<InFlightBind> inFlight(String podKey) {
    return Optional.ofNullable(byPod.get(podKey));
  }
}
