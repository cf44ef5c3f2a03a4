package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.metrics.AllocationMetrics;
import io.gantry.proto.deviceplugin.v1beta1.AllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.AllocateResponse;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.gantry.proto.deviceplugin.v1beta1.ContainerPreferredAllocationResponse;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.gantry.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.gantry.proto.deviceplugin.v1beta1.Empty;
import io.gantry.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.gantry.proto.deviceplugin.v1beta1.PreStartContainerRequest;
import io.gantry.proto.deviceplugin.v1beta1.PreStartContainerResponse;
import io.gantry.proto.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.gantry.proto.deviceplugin.v1beta1.PreferredAllocationResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code v1beta1.DevicePlugin} for one extended resource: {@code ListAndWatch} streams the {@link
 * DeviceListFeed}, {@code Allocate} answers each container through the {@link ContainerAllocator}
 * (one response per container request, in order). With a {@link DevicePreference}, the plugin asks
 * the kubelet for {@code GetPreferredAllocation} and answers it through the preference; no
 * pre-start call is asked for.
 */
final class DevicePluginService extends DevicePluginGrpc.DevicePluginImplBase {
  private static final Logger log = LoggerFactory.getLogger(DevicePluginService.class);

  private final String resourceName;
  private final DeviceListFeed feed;
  private final ContainerAllocator allocator;
  private final Optional<DevicePreference> preference;
  private final AllocationMetrics metrics;

  DevicePluginService(
      String resourceName,
      DeviceListFeed feed,
      ContainerAllocator allocator,
      Optional<DevicePreference> preference,
      AllocationMetrics metrics) {
    this.resourceName = requireNonNull(resourceName, "resourceName is null");
    this.feed = requireNonNull(feed, "feed is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.preference = requireNonNull(preference, "preference is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
  }

  @Override
  public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> response) {
    response.onNext(
        DevicePluginOptions.newBuilder()
            .setGetPreferredAllocationAvailable(preference.isPresent())
            .build());
    response.onCompleted();
  }

  @Override
  public void getPreferredAllocation(
      PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> response) {
    if (preference.isEmpty()) {
      response.onError(
          Status.UNIMPLEMENTED
              .withDescription(resourceName + " has no preferred allocation")
              .asException());
      return;
    }
    PreferredAllocationResponse.Builder answer = PreferredAllocationResponse.newBuilder();
    for (ContainerPreferredAllocationRequest container : request.getContainerRequestsList()) {
      answer.addContainerResponses(
          ContainerPreferredAllocationResponse.newBuilder()
              .addAllDeviceIDs(
                  preference
                      .get()
                      .preferred(
                          container.getAvailableDeviceIDsList(),
                          container.getMustIncludeDeviceIDsList(),
                          container.getAllocationSize())));
    }
    response.onNext(answer.build());
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
      metrics.refused(resourceName, request.getContainerRequestsCount());
      response.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asException());
      return;
    }
    log.info("allocated {} {}", resourceName, request.getContainerRequestsList());
    metrics.allocated(resourceName, request.getContainerRequestsCount());
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
