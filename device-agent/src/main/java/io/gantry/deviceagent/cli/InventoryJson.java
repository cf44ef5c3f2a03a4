package io.gantry.deviceagent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.json.InventoryJsonWriter;
import java.io.UncheckedIOException;

/**
 * The inventory as one pretty-printed JSON object, in the shape the node annotation also carries
 * ({@link InventoryJsonWriter}).
 */
final class InventoryJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private InventoryJson() {}

  static String toJson(GpuInventory inventory) {
    try {
      return MAPPER.writeValueAsString(InventoryJsonWriter.write(inventory))
          + System.lineSeparator();
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
