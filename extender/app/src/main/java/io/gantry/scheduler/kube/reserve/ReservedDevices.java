package io.gantry.scheduler.kube.reserve;

import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.gpusharing.inventory.json.InventoryFormatException;
import io.kubernetes.client.openapi.models.V1Node;
import java.util.Map;

/**
 * The device behind a reserved UUID, from the node's {@code gantry.io/gpu-inventory} (the device
 * agent publishes it in both sharing modes): its index and memory, which the contract's memory
 * limits and the agent's enforcement need.
 */
final class ReservedDevices {
  private ReservedDevices() {}

  /**
   * @throws IllegalStateException naming the node and the UUID when the inventory lacks it
   */
  static AssignedGpu device(V1Node node, String nodeName, String uuid) {
    Map<String, String> annotations =
        node == null || node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(InventoryAnnotation.KEY);
    if (value == null) {
      throw new IllegalStateException(
          "node "
              + nodeName
              + " has no "
              + InventoryAnnotation.KEY
              + " annotation to look GPU "
              + uuid
              + " up in (is Gantry's device agent running there?)");
    }
    try {
      for (GpuDevice d : InventoryAnnotation.parse(value).inventory().devices()) {
        if (d.uuid().equals(uuid)) {
          return new AssignedGpu(d.index(), d.uuid(), d.memoryMib());
        }
      }
    } catch (InventoryFormatException e) {
      throw new IllegalStateException(
          "node " + nodeName + ": " + InventoryAnnotation.KEY + ": " + e.getMessage(), e);
    }
    throw new IllegalStateException(
        "node " + nodeName + " lists no GPU " + uuid + " in " + InventoryAnnotation.KEY);
  }
}
