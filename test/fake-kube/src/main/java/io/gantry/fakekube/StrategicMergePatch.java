package io.gantry.fakekube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import java.util.Map;

/**
 * Strategic merge patch ({@code application/strategic-merge-patch+json}), simplified: a JSON merge
 * patch, except that the lists below merge element by element on their merge key as the built-in
 * types declare ({@code patchMergeKey}), {@code finalizers} merges as a set, and the directives
 * {@code $patch: replace|delete}, {@code $deleteFromPrimitiveList/<list>} are honoured; {@code
 * $setElementOrder/<list>} and {@code $retainKeys} are ignored. Every other list is replaced whole.
 * The field name alone picks the merge key, wherever the list sits in the object.
 */
final class StrategicMergePatch {
  private static final String PRIMITIVE_SET = "";
  private static final ImmutableMap<String, String> MERGE_KEYS =
      ImmutableMap.<String, String>builder()
          .put("conditions", "type")
          .put("containers", "name")
          .put("initContainers", "name")
          .put("ephemeralContainers", "name")
          .put("volumes", "name")
          .put("env", "name")
          .put("imagePullSecrets", "name")
          .put("resourceClaims", "name")
          .put("volumeMounts", "mountPath")
          .put("ownerReferences", "uid")
          .put("finalizers", PRIMITIVE_SET)
          .buildOrThrow();

  private StrategicMergePatch() {}

  static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    if ("replace".equals(patch.path("$patch").asText())) {
      ObjectNode replacement = ((ObjectNode) patch).deepCopy();
      replacement.remove("$patch");
      return replacement;
    }
    ObjectNode result =
        target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.object();
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (name.startsWith("$setElementOrder/") || name.equals("$retainKeys")) {
        continue;
      }
      if (name.startsWith("$deleteFromPrimitiveList/")) {
        deleteFromPrimitiveList(result, name.substring(name.indexOf('/') + 1), value);
      } else if (value.isNull() || "delete".equals(value.path("$patch").asText())) {
        result.remove(name);
      } else if (value.isArray() && MERGE_KEYS.containsKey(name) && result.path(name).isArray()) {
        result.set(
            name, mergeList((ArrayNode) result.get(name), (ArrayNode) value, MERGE_KEYS.get(name)));
      } else if (value.isArray()) {
        result.set(name, withoutDirectives((ArrayNode) value));
      } else {
        result.set(name, apply(result.get(name), value));
      }
    }
    return result;
  }

  private static ArrayNode mergeList(ArrayNode target, ArrayNode patch, String mergeKey) {
    for (JsonNode element : patch) {
      if ("replace".equals(element.path("$patch").asText())) {
        return withoutDirectives(patch);
      }
    }
    ArrayNode result = target.deepCopy();
    for (JsonNode element : patch) {
      if (mergeKey.equals(PRIMITIVE_SET)) {
        if (!contains(result, element)) {
          result.add(element.deepCopy());
        }
        continue;
      }
      int at = indexOf(result, mergeKey, element.path(mergeKey));
      if ("delete".equals(element.path("$patch").asText())) {
        if (at >= 0) {
          result.remove(at);
        }
      } else if (at >= 0) {
        result.set(at, apply(result.get(at), element));
      } else {
        result.add(apply(Json.object(), element));
      }
    }
    return result;
  }

  private static void deleteFromPrimitiveList(ObjectNode result, String list, JsonNode values) {
    if (!result.path(list).isArray() || !values.isArray()) {
      return;
    }
    ArrayNode kept = result.arrayNode();
    for (JsonNode element : result.get(list)) {
      if (!contains(values, element)) {
        kept.add(element);
      }
    }
    result.set(list, kept);
  }

  private static ArrayNode withoutDirectives(ArrayNode list) {
    ArrayNode result = list.arrayNode();
    for (JsonNode element : list) {
      if (!element.has("$patch")) {
        result.add(element.deepCopy());
      }
    }
    return result;
  }

  private static int indexOf(ArrayNode list, String key, JsonNode value) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).path(key).equals(value)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean contains(JsonNode list, JsonNode element) {
    for (JsonNode existing : list) {
      if (existing.equals(element)) {
        return true;
      }
    }
    return false;
  }
}
