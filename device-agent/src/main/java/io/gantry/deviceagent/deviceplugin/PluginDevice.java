package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import io.gantry.proto.deviceplugin.v1beta1.Device;
import io.gantry.proto.deviceplugin.v1beta1.NUMANode;
import io.gantry.proto.deviceplugin.v1beta1.TopologyInfo;
import java.util.OptionalInt;

/**
 * One device a plugin offers the kubelet: its id (at most 63 characters, the API's limit), whether
 * it is healthy, and the NUMA node it is attached to when known (the kubelet's topology manager
 * aligns CPUs with it).
 */
public record PluginDevice(String id, boolean healthy, OptionalInt numaNode) {
  /** The kubelet API's health values. */
  public static final String HEALTHY = "Healthy";

  public static final String UNHEALTHY = "Unhealthy";

  private static final int MAX_ID_LENGTH = 63;

  public PluginDevice {
    requireNonNull(id, "id is null");
    requireNonNull(numaNode, "numaNode is null");
    if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
      throw new IllegalArgumentException(
          "a device id has 1 to " + MAX_ID_LENGTH + " characters, got \"" + id + "\"");
    }
  }

  /** The device as the kubelet API writes it. */
  public Device toProto() {
    Device.Builder device = Device.newBuilder().setID(id).setHealth(healthy ? HEALTHY : UNHEALTHY);
    numaNode.ifPresent(
        n ->
            device.setTopology(TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(n))));
    return device.build();
  }
}
