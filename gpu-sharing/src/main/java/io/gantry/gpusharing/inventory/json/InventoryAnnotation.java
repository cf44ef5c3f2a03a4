package io.gantry.gpusharing.inventory.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.gpusharing.inventory.GpuInventory;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The node annotation {@value #KEY}: the inventory as compact JSON, {@code {"version":1,
 * "driverVersion":...}} followed by the keys of {@link InventoryJsonWriter} (the same shape {@code
 * discover --output json} prints). The scheduler reads it to learn a node's GPUs and NVLink
 * domains. A reader refuses any other version rather than guess at a format it does not know.
 */
public record InventoryAnnotation(GpuInventory inventory) {
  /** The annotation key. */
  public static final String KEY = "gantry.io/gpu-inventory";

  /** The format version this build writes and reads. */
  public static final int VERSION = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  public InventoryAnnotation {
    requireNonNull(inventory, "inventory is null");
  }

  /** The annotation value: compact JSON, the same bytes for the same inventory. */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", VERSION);
    root.setAll(InventoryJsonWriter.write(inventory));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads an annotation value.
   *
   * @throws InventoryFormatException when {@code value} is not JSON, not an object, of another
   *     version, or a field is missing or wrong; the message starts with the annotation key and
   *     names the field
   */
  public static InventoryAnnotation parse(String value) throws InventoryFormatException {
    if (value == null || value.isBlank()) {
      throw new InventoryFormatException(KEY + ": empty, expected a JSON object");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(value);
    } catch (JsonProcessingException e) {
      throw new InventoryFormatException(KEY + ": not JSON: " + e.getOriginalMessage(), e);
    }
    if (!root.isObject()) {
      throw new InventoryFormatException(
          KEY
              + ": expected a JSON object, got "
              + root.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    JsonNode version = root.get("version");
    if (version == null || !version.isIntegralNumber()) {
      throw new InventoryFormatException(
          KEY + ": version: missing or not an integer (this build reads version " + VERSION + ")");
    }
    if (version.asInt() != VERSION) {
      throw new InventoryFormatException(
          KEY
              + ": version: unsupported version "
              + version.asText()
              + " (this build reads version "
              + VERSION
              + ")");
    }
    try {
      return new InventoryAnnotation(InventoryJsonReader.read(root));
    } catch (InventoryFormatException e) {
      throw new InventoryFormatException(KEY + ": " + e.getMessage(), e);
    }
  }
}
