package io.gantry.scheduler.kube.crd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.Gson;
import com.google.gson.ToNumberPolicy;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The definition {@code gantry crds apply} writes over one the cluster already has: Gantry's,
 * widened to accept everything the cluster's accepts. A cluster that runs KAI keeps every field
 * KAI's controllers write (the API server prunes a field its schema does not name, and rejects a
 * value outside an enum), every version it stores, and its conversion webhook.
 *
 * <p>Per version of the same name, the schemas are united: the properties of both (recursively, in
 * {@code items} and {@code additionalProperties} too), only the {@code required} names both
 * require, the values of both enums (none when either has none), and {@code
 * x-kubernetes-preserve-unknown-fields} when either preserves. Versions only the cluster has are
 * kept, served as they were but not as the storage version. Printer columns, short names and
 * categories are united; the rest is Gantry's.
 */
public final class CrdSuperset {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * client-java's Gson, reading a whole number in an untyped field ({@code items}) as an integer:
   * its own reads it as a double, written back as {@code 1.0}, which the API server refuses for an
   * integer keyword such as {@code minLength}.
   */
  private static final Gson GSON =
      io.kubernetes
          .client
          .openapi
          .JSON
          .getGson()
          .newBuilder()
          .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
          .create();

  private CrdSuperset() {}

  /** {@code gantry} widened by {@code existing}; neither is changed. */
  public static V1CustomResourceDefinition of(
      V1CustomResourceDefinition gantry, V1CustomResourceDefinition existing) {
    ObjectNode out = tree(gantry);
    ObjectNode theirs = tree(existing);
    ObjectNode spec = (ObjectNode) out.path("spec");
    JsonNode theirSpec = theirs.path("spec");
    uniteVersions(spec, theirSpec);
    for (String list : List.of("shortNames", "categories")) {
      unite((ObjectNode) spec.path("names"), theirSpec.path("names"), list);
    }
    JsonNode conversion = theirSpec.path("conversion");
    if (!spec.has("conversion") && conversion.path("strategy").asText().equals("Webhook")) {
      spec.set("conversion", conversion.deepCopy());
    }
    return GSON.fromJson(out.toString(), V1CustomResourceDefinition.class);
  }

  private static void uniteVersions(ObjectNode spec, JsonNode theirSpec) {
    ArrayNode versions = (ArrayNode) spec.path("versions");
    for (JsonNode theirs : theirSpec.path("versions")) {
      String name = theirs.path("name").asText();
      ObjectNode ours = find(versions, name);
      if (ours == null) {
        ObjectNode kept = theirs.deepCopy();
        kept.put("storage", false);
        versions.add(kept);
        continue;
      }
      JsonNode theirSchema = theirs.path("schema").path("openAPIV3Schema");
      if (ours.path("schema").path("openAPIV3Schema") instanceof ObjectNode schema
          && theirSchema.isObject()) {
        uniteSchema(schema, theirSchema);
      }
      JsonNode theirColumns = theirs.path("additionalPrinterColumns");
      if (theirColumns.isArray()) {
        ArrayNode columns =
            ours.has("additionalPrinterColumns")
                ? (ArrayNode) ours.get("additionalPrinterColumns")
                : ours.putArray("additionalPrinterColumns");
        for (JsonNode column : theirColumns) {
          if (find(columns, column.path("name").asText()) == null) {
            columns.add(column.deepCopy());
          }
        }
      }
      if (!ours.has("subresources") && theirs.has("subresources")) {
        ours.set("subresources", theirs.get("subresources").deepCopy());
      } else if (ours.path("subresources") instanceof ObjectNode sub) {
        theirs
            .path("subresources")
            .properties()
            .forEach(e -> sub.putIfAbsent(e.getKey(), e.getValue()));
      }
    }
  }

  private static void uniteSchema(ObjectNode ours, JsonNode theirs) {
    JsonNode theirProperties = theirs.path("properties");
    if (theirProperties.isObject()) {
      ObjectNode properties =
          ours.has("properties")
              ? (ObjectNode) ours.get("properties")
              : ours.putObject("properties");
      for (Map.Entry<String, JsonNode> p : theirProperties.properties()) {
        if (properties.get(p.getKey()) instanceof ObjectNode mine && p.getValue().isObject()) {
          uniteSchema(mine, p.getValue());
        } else if (!properties.has(p.getKey())) {
          properties.set(p.getKey(), p.getValue().deepCopy());
        }
      }
    }
    for (String nested : List.of("items", "additionalProperties")) {
      if (ours.get(nested) instanceof ObjectNode mine && theirs.path(nested).isObject()) {
        uniteSchema(mine, theirs.get(nested));
      } else if (!ours.has(nested) && theirs.has(nested)) {
        ours.set(nested, theirs.get(nested).deepCopy());
      }
    }
    // client-java's models write an absent list as [], so an empty list means none here
    if (!ours.path("required").isEmpty()) {
      Set<String> both = texts(ours.get("required"));
      both.retainAll(texts(theirs.path("required")));
      ArrayNode required = ours.putArray("required");
      both.forEach(required::add);
    }
    if (!ours.path("enum").isEmpty()) {
      if (theirs.path("enum").isEmpty()) {
        ours.putArray("enum");
      } else {
        unite(ours, theirs, "enum");
      }
    }
    if (theirs.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
      ours.put("x-kubernetes-preserve-unknown-fields", true);
    }
  }

  /** {@code ours[key]} with the entries of {@code theirs[key]} it lacks, in order. */
  private static void unite(ObjectNode ours, JsonNode theirs, String key) {
    if (!theirs.path(key).isArray()) {
      return;
    }
    ArrayNode list = ours.has(key) ? (ArrayNode) ours.get(key) : ours.putArray(key);
    List<JsonNode> present = new ArrayList<>();
    list.forEach(present::add);
    for (JsonNode value : theirs.get(key)) {
      if (!present.contains(value)) {
        list.add(value.deepCopy());
        present.add(value);
      }
    }
  }

  private static ObjectNode find(ArrayNode named, String name) {
    for (Iterator<JsonNode> it = named.elements(); it.hasNext(); ) {
      JsonNode n = it.next();
      if (n.path("name").asText().equals(name)) {
        return (ObjectNode) n;
      }
    }
    return null;
  }

  private static Set<String> texts(JsonNode array) {
    Set<String> out = new LinkedHashSet<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /**
   * The definition as a tree, whole numbers as integers: a schema nested in an untyped field
   * ({@code items}) of a definition read from the API server holds them as doubles.
   */
  private static ObjectNode tree(V1CustomResourceDefinition crd) {
    try {
      return (ObjectNode) wholeNumbersAsIntegers(JSON.readTree(crd.toJson()));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("a CRD that is not JSON", e);
    }
  }

  private static JsonNode wholeNumbersAsIntegers(JsonNode node) {
    if (node.isFloatingPointNumber() && node.asDouble() == Math.rint(node.asDouble())) {
      return LongNode.valueOf((long) node.asDouble());
    }
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.properties().forEach(e -> names.add(e.getKey()));
      for (String name : names) {
        object.set(name, wholeNumbersAsIntegers(object.get(name)));
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, wholeNumbersAsIntegers(array.get(i)));
      }
    }
    return node;
  }
}
