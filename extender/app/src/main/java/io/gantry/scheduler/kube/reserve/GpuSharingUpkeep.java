package io.gantry.scheduler.kube.reserve;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What reservation-pods mode does after each cycle's decisions went to the binder (so that the
 * binds just started count as references): the {@link ReservationCleanup} over the pods that
 * concern it, and with scaling pods on, {@link ScalingPods#reconcile} for the fraction pods still
 * waiting: pending, not bound or being bound, not decided this cycle.
 */
public final class GpuSharingUpkeep {
  private final Supplier<List<V1Pod>> pods;
  private final ReservationCleanup cleanup;
  private final Optional<ScalingPods> scaling;
  private final Predicate<String> inFlight;

  /**
   * @param pods the pod cache's content
   * @param inFlight whether the pod ({@code namespace/name}) has a bind in flight
   */
  public GpuSharingUpkeep(
      Supplier<List<V1Pod>> pods,
      ReservationCleanup cleanup,
      Optional<ScalingPods> scaling,
      Predicate<String> inFlight) {
    this.pods = requireNonNull(pods, "pods is null");
    this.cleanup = requireNonNull(cleanup, "cleanup is null");
    this.scaling = requireNonNull(scaling, "scaling is null");
    this.inFlight = requireNonNull(inFlight, "inFlight is null");
  }

  /**
   * @param decided the tasks ({@code namespace/name}) this cycle bound or pipelined
   */
  public void run(LiveSnapshot live, Set<String> decided) {
    cleanup.run(pods.get());
    if (scaling.isPresent()) {
      // a pod the snapshot left out (one created before the webhook, say) waits for its owner, not
      // for a node: no scaling pod stands for it
      Set<String> leftOut =
          live.unschedulablePods().stream()
              .map(LiveSnapshot.Problem::key)
              .collect(ImmutableSet.toImmutableSet());
      List<GpuSharingRequest> waiting = new ArrayList<>();
      for (PodFacts p : live.pods().values()) {
        if (p.gpuSharing().isPresent()
            && p.nodeName().isEmpty()
            && p.deletionTimestamp().isEmpty()
            && !leftOut.contains(p.key())
            && !decided.contains(p.key())
            && !inFlight.test(p.key())) {
          waiting.add(p.gpuSharing().get());
        }
      }
      scaling.get().reconcile(waiting);
    }
  }
}
