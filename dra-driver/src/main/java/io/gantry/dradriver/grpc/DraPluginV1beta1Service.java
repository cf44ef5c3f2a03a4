package io.gantry.dradriver.grpc;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.gantry.proto.dra.v1beta1.DRAPluginGrpc;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodePrepareResourcesRequest;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodePrepareResourcesResponse;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodeUnprepareResourcesRequest;
import io.gantry.proto.dra.v1beta1.DraPluginV1beta1Proto.NodeUnprepareResourcesResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/**
 * {@code k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin} (advertised as {@code v1beta1.DRAPlugin},
 * for kubelets 1.32 and 1.33). Its messages are {@code v1}'s field for field, minus {@code
 * Device.share_id} which this driver never sets, so each call is re-read as {@code v1} and answered
 * by {@link DraPluginV1Service}: one translation of the kubelet's calls for both versions.
 */
public final class DraPluginV1beta1Service extends DRAPluginGrpc.DRAPluginImplBase {
  private final DraPluginV1Service v1;

  public DraPluginV1beta1Service(DraPluginV1Service v1) {
    this.v1 = requireNonNull(v1, "v1 is null");
  }

  @Override
  public void nodePrepareResources(
      NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> response) {
    try {
      io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesResponse answer =
          v1.prepare(
              io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesRequest.parseFrom(
                  request.toByteString()));
      response.onNext(NodePrepareResourcesResponse.parseFrom(answer.toByteString()));
      response.onCompleted();
    } catch (InvalidProtocolBufferException e) {
      response.onError(notV1(request.toByteString(), e));
    }
  }

  @Override
  public void nodeUnprepareResources(
      NodeUnprepareResourcesRequest request,
      StreamObserver<NodeUnprepareResourcesResponse> response) {
    try {
      io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesResponse answer =
          v1.unprepare(
              io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesRequest.parseFrom(
                  request.toByteString()));
      response.onNext(NodeUnprepareResourcesResponse.parseFrom(answer.toByteString()));
      response.onCompleted();
    } catch (InvalidProtocolBufferException e) {
      response.onError(notV1(request.toByteString(), e));
    }
  }

  /** Cannot happen while the two contracts keep the same fields; reported rather than hidden. */
  private static Exception notV1(ByteString message, InvalidProtocolBufferException e) {
    return Status.INTERNAL
        .withDescription(
            "a v1beta1 message of "
                + message.size()
                + " bytes is not a v1 message: "
                + e.getMessage())
        .withCause(e)
        .asException();
  }
}
