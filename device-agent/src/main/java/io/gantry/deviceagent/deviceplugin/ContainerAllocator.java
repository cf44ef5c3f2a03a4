package io.gantry.deviceagent.deviceplugin;

import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.gantry.proto.deviceplugin.v1beta1.ContainerAllocateResponse;

/**
 * What a resource's {@code Allocate} returns for one container: the environment, mounts, device
 * nodes and CDI devices that give it the devices the kubelet chose (the ids in the request). Called
 * on the plugin's gRPC threads, possibly at once for several pods; implementations are thread-safe.
 */
public interface ContainerAllocator {
  /**
   * The response for one container.
   *
   * @throws AllocationException when the container cannot be given its devices; the kubelet fails
   *     the container start with the message
   */
  ContainerAllocateResponse allocate(ContainerAllocateRequest request) throws AllocationException;
}
