package io.gantry.kubemodel.dra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.ScenarioException;

/**
 * The {@code parameters} of an opaque device configuration as compact JSON text: data for a driver
 * that the scheduler passes on unread. Keys keep their file order; numbers are written as Jackson
 * writes a tree it read ({@code 20000}, {@code 0.5}), so parameters read back from a claim's status
 * compare equal to the ones that were written there.
 */
final class OpaqueParameters {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private OpaqueParameters() {}

  /** The mapping at {@code field} as JSON; anything but a mapping is an error naming the field. */
  static String json(Field field) throws ScenarioException {
    field.asOpenMap();
    return value(field).toString();
  }

  private static JsonNode value(Field field) throws ScenarioException {
    if (field.isMap()) {
      ObjectNode object = NODES.objectNode();
      for (Field entry : field.asOpenMap().fields()) {
        object.set(entry.key(), value(entry));
      }
      return object;
    }
    if (field.isList()) {
      ArrayNode array = NODES.arrayNode();
      for (Field item : field.asList()) {
        array.add(value(item));
      }
      return array;
    }
    Object scalar = field.asScalarValue();
    if (scalar instanceof Long) {
      return NODES.numberNode((Long) scalar);
    }
    if (scalar instanceof Double) {
      return NODES.numberNode((Double) scalar);
    }
    if (scalar instanceof Boolean) {
      return NODES.booleanNode((Boolean) scalar);
    }
    return NODES.textNode((String) scalar);
  }
}
