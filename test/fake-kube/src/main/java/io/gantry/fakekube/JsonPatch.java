package io.gantry.fakekube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON patch (RFC 6902, {@code application/json-patch+json}): operations add, remove, replace,
 * move, copy and test over JSON pointers (RFC 6901, with {@code ~0}/{@code ~1} escapes and {@code
 * -} for the end of an array). A malformed document is a 400 Status; an operation that cannot be
 * applied (missing path, failed test) is a 422 Status, as on the real server.
 */
final class JsonPatch {
  private JsonPatch() {}

  static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isArray()) {
      throw new StatusException(
          KubeStatus.badRequest("a JSON patch must be an array of operations"));
    }
    JsonNode document = target.deepCopy();
    for (JsonNode op : patch) {
      document = applyOne(document, op);
    }
    return document;
  }

  private static JsonNode applyOne(JsonNode document, JsonNode op) {
    String name = required(op, "op");
    List<String> path = pointer(required(op, "path"));
    return switch (name) {
      case "add" -> add(document, path, value(op));
      case "remove" -> remove(document, path, op);
      case "replace" -> replace(document, path, value(op), op);
      case "move" -> {
        List<String> from = pointer(required(op, "from"));
        JsonNode moved = get(document, from, op).deepCopy();
        yield add(remove(document, from, op), path, moved);
      }
      case "copy" ->
          add(document, path, get(document, pointer(required(op, "from")), op).deepCopy());
      case "test" -> {
        if (!get(document, path, op).equals(value(op))) {
          throw failed("testing value " + op.get("path").asText() + " failed");
        }
        yield document;
      }
      default ->
          throw new StatusException(
              KubeStatus.badRequest("unexpected JSON patch operation \"" + name + "\""));
    };
  }

  private static JsonNode add(JsonNode document, List<String> path, JsonNode value) {
    if (path.isEmpty()) {
      return value;
    }
    JsonNode parent = resolve(document, path.subList(0, path.size() - 1));
    String last = path.get(path.size() - 1);
    if (parent instanceof ObjectNode object) {
      object.set(last, value);
    } else if (parent instanceof ArrayNode array) {
      if (last.equals("-")) {
        array.add(value);
      } else {
        int index = index(last, array.size() + 1, path);
        array.insert(index, value);
      }
    } else {
      throw failed("add operation does not apply: doc is missing path: " + render(path));
    }
    return document;
  }

  private static JsonNode replace(
      JsonNode document, List<String> path, JsonNode value, JsonNode op) {
    get(document, path, op);
    if (path.isEmpty()) {
      return value;
    }
    JsonNode parent = resolve(document, path.subList(0, path.size() - 1));
    String last = path.get(path.size() - 1);
    if (parent instanceof ObjectNode object) {
      object.set(last, value);
    } else {
      ((ArrayNode) parent).set(index(last, parent.size(), path), value);
    }
    return document;
  }

  private static JsonNode remove(JsonNode document, List<String> path, JsonNode op) {
    if (path.isEmpty()) {
      throw failed("unable to remove the whole document");
    }
    JsonNode parent = resolve(document, path.subList(0, path.size() - 1));
    String last = path.get(path.size() - 1);
    if (parent instanceof ObjectNode object && object.has(last)) {
      object.remove(last);
    } else if (parent instanceof ArrayNode array && !last.equals("-")) {
      array.remove(index(last, array.size(), path));
    } else {
      throw failed(
          op.get("op").asText()
              + " operation does not apply: doc is missing path: "
              + render(path));
    }
    return document;
  }

  private static JsonNode get(JsonNode document, List<String> path, JsonNode op) {
    JsonNode node = resolve(document, path);
    if (node == null) {
      throw failed(
          op.get("op").asText()
              + " operation does not apply: doc is missing path: "
              + render(path));
    }
    return node;
  }

  private static JsonNode resolve(JsonNode document, List<String> path) {
    JsonNode current = document;
    for (String token : path) {
      if (current instanceof ObjectNode) {
        current = current.get(token);
      } else if (current instanceof ArrayNode array) {
        if (!token.matches("0|[1-9]\\d*") || Integer.parseInt(token) >= array.size()) {
          return null;
        }
        current = array.get(Integer.parseInt(token));
      } else {
        return null;
      }
    }
    return current;
  }

  private static int index(String token, int limit, List<String> path) {
    if (!token.matches("0|[1-9]\\d*") || Integer.parseInt(token) >= limit) {
      throw failed("array index out of bounds at " + render(path));
    }
    return Integer.parseInt(token);
  }

  static List<String> pointer(String pointer) {
    if (pointer.isEmpty()) {
      return List.of();
    }
    if (!pointer.startsWith("/")) {
      throw new StatusException(
          KubeStatus.badRequest("JSON pointer \"" + pointer + "\" must start with /"));
    }
    List<String> tokens = new ArrayList<>();
    for (String raw : pointer.substring(1).split("/", -1)) {
      tokens.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return tokens;
  }

  private static String render(List<String> path) {
    StringBuilder out = new StringBuilder();
    for (String token : path) {
      out.append('/').append(token.replace("~", "~0").replace("/", "~1"));
    }
    return out.toString();
  }

  private static String required(JsonNode op, String field) {
    JsonNode value = op.get(field);
    if (value == null || !value.isTextual()) {
      throw new StatusException(
          KubeStatus.badRequest("JSON patch operation " + op + " has no \"" + field + "\""));
    }
    return value.asText();
  }

  private static JsonNode value(JsonNode op) {
    if (!op.has("value")) {
      throw new StatusException(
          KubeStatus.badRequest("JSON patch operation " + op + " has no \"value\""));
    }
    return op.get("value").deepCopy();
  }

  private static StatusException failed(String message) {
    return new StatusException(KubeStatus.unprocessable(message));
  }
}
