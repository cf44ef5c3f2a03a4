package io.gantry.dradriver.grpc;

import static java.util.Objects.requireNonNull;

import io.gantry.dradriver.metrics.DraDriverMetrics;
import io.gantry.dradriver.prepare.ClaimOutcome;
import io.gantry.dradriver.prepare.ClaimPreparer;
import io.gantry.dradriver.prepare.ClaimRef;
import io.gantry.dradriver.prepare.PreparedDevice;
import io.gantry.proto.dra.v1.DRAPluginGrpc;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Claim;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Device;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourceResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesRequest;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourceResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesRequest;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesResponse;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin} (advertised as {@code v1.DRAPlugin}): translates
 * the kubelet's messages for {@link ClaimPreparer}. Errors are per claim, in each claim's {@code
 * error}; the call itself always succeeds, so one bad claim never hides the others' answers. Each
 * call's time and each claim's result go to the metrics (both versions answer here).
 */
public final class DraPluginV1Service extends DRAPluginGrpc.DRAPluginImplBase {
  private final ClaimPreparer preparer;
  private final DraDriverMetrics metrics;

  public DraPluginV1Service(ClaimPreparer preparer, DraDriverMetrics metrics) {
    this.preparer = requireNonNull(preparer, "preparer is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
  }

  @Override
  public void nodePrepareResources(
      NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> response) {
    response.onNext(prepare(request));
    response.onCompleted();
  }

  @Override
  public void nodeUnprepareResources(
      NodeUnprepareResourcesRequest request,
      StreamObserver<NodeUnprepareResourcesResponse> response) {
    response.onNext(unprepare(request));
    response.onCompleted();
  }

  /** The answer to {@code NodePrepareResources}: one entry per claim UID. */
  NodePrepareResourcesResponse prepare(NodePrepareResourcesRequest request) {
    long start = System.nanoTime();
    Map<String, ClaimOutcome> outcomes = preparer.prepare(refs(request.getClaimsList()));
    measured(DraDriverMetrics.PREPARE, start, outcomes);
    NodePrepareResourcesResponse.Builder answer = NodePrepareResourcesResponse.newBuilder();
    for (Map.Entry<String, ClaimOutcome> e : outcomes.entrySet()) {
      NodePrepareResourceResponse.Builder claim = NodePrepareResourceResponse.newBuilder();
      e.getValue().error().ifPresent(claim::setError);
      for (PreparedDevice d : e.getValue().devices()) {
        claim.addDevices(
            Device.newBuilder()
                .addAllRequestNames(d.requestNames())
                .setPoolName(d.poolName())
                .setDeviceName(d.deviceName())
                .addAllCdiDeviceIds(d.cdiDeviceIds()));
      }
      answer.putClaims(e.getKey(), claim.build());
    }
    return answer.build();
  }

  /** The answer to {@code NodeUnprepareResources}: one entry per claim UID. */
  NodeUnprepareResourcesResponse unprepare(NodeUnprepareResourcesRequest request) {
    long start = System.nanoTime();
    Map<String, ClaimOutcome> outcomes = preparer.unprepare(refs(request.getClaimsList()));
    measured(DraDriverMetrics.UNPREPARE, start, outcomes);
    NodeUnprepareResourcesResponse.Builder answer = NodeUnprepareResourcesResponse.newBuilder();
    for (Map.Entry<String, ClaimOutcome> e : outcomes.entrySet()) {
      NodeUnprepareResourceResponse.Builder claim = NodeUnprepareResourceResponse.newBuilder();
      e.getValue().error().ifPresent(claim::setError);
      answer.putClaims(e.getKey(), claim.build());
    }
    return answer.build();
  }

  private void measured(String method, long startNanos, Map<String, ClaimOutcome> outcomes) {
    metrics.call(method, Duration.ofNanos(System.nanoTime() - startNanos));
    outcomes.values().forEach(o -> metrics.claim(method, o.error().isEmpty()));
  }

  private static List<ClaimRef> refs(List<Claim> claims) {
    return claims.stream()
        .map(c -> new ClaimRef(c.getNamespace(), c.getUid(), c.getName()))
        .toList();
  }
}
