package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import io.gantry.proto.deviceplugin.v1beta1.AllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.AllocateResponse;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.Empty;
import io.gantry.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.gantry.proto.deviceplugin.v1beta1.PreStartContainerRequest;
import io.gantry.proto.deviceplugin.v1beta1.PreStartContainerResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code v1beta1.DevicePlugin} for one extended resource: {@code ListAndWatch} streams the {@link
 * DeviceListFeed}, {@code Allocate} answers each container through the {@link ContainerAllocator}
 * (one response per container request, in order). Neither preferred allocation nor a pre-start call
 * is asked for.
 */
final class DevicePluginService extends DevicePluginGrpc.DevicePluginImplBase {
  private static final Logger log = LoggerFactory.getLogger(DevicePluginService.class);

  private final String resourceName;
  private final DeviceListFeed feed;
  private final ContainerAllocator allocator;

  DevicePluginService(String resourceName, DeviceListFeed feed, ContainerAllocator allocator) {
    this.resourceName = requireNonNull(resourceName, "resourceName is null");
    this.feed = requireNonNull(feed, "feed is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  @Override
  public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> response) {
    response.onNext(DevicePluginOptions.getDefaultInstance());
    response.onCompleted();
  }

  @Override
  public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> response) {
    log.info("kubelet watches {}", resourceName);
    feed.watch(response);
  }

  @Override
  public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> response) {
    AllocateResponse.Builder answer = AllocateResponse.newBuilder();
    try {
      for (ContainerAllocateRequest container : request.getContainerRequestsList()) {
        answer.addContainerResponses(allocator.allocate(container));
      }
    } catch (AllocationException e) {
      log.warn("Allocate of {} refused: {}", resourceName, e.getMessage());
      response.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asException());
      return;
    }
    log.info("allocated {} {}", resourceName, request.getContainerRequestsList());
    response.onNext(answer.build());
    response.onCompleted();
  }

  @Override
  public void preStartContainer(
      PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> response) {
    response.onNext(PreStartContainerResponse.getDefaultInstance());
    response.onCompleted();
  }
}
