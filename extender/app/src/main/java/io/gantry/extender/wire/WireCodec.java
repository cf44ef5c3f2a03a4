package io.gantry.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.JacksonLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and writes the extender protocol (protocols.md §1.2). Keys are Go's field names ({@code
 * Pod}, {@code NodeNames}); like Go's decoder, reading prefers the exact key and accepts any other
 * capitalisation, and ignores keys it does not know. Everything it needs is checked: a missing or
 * mistyped field is a {@link BadRequest} naming the field. Writing sends every key, {@code null}
 * for what is unset, as Go's encoder does.
 */
public final class WireCodec {
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  /** Reads one value inside a streamed body, where more of the body follows. */
  private static final ObjectReader SUBTREE =
      JSON.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Objects and arrays inside each other; a pod nests about a dozen levels. */
  public static final int MAX_NESTING_DEPTH = 64;

  static {
    // nesting deeper than any pod needs is an attack, not a pod
    JSON.getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
  }

  private WireCodec() {}

  /** The body as a JSON object, or why it is not one. */
  public static JsonNode object(byte[] body) throws BadRequest {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw notJson(e);
    } catch (IOException e) {
      throw new BadRequest("request body: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadRequest("request body: expected a JSON object");
    }
    return root;
  }

  /**
   * Why the body could not be read. A body over one of the reader's limits says which limit in
   * words; Jackson's own message names its internal getter ({@code
   * StreamReadConstraints.getMaxNestingDepth()}), which means nothing to a client.
   */
  private static BadRequest notJson(JsonProcessingException e) {
    if (e instanceof StreamConstraintsException limit) {
      if (JacksonLimits.isNestingDepth(limit)) {
        return new BadRequest(
            "request body: objects and arrays nest more than "
                + MAX_NESTING_DEPTH
                + " levels deep, the limit for a request");
      }
      return new BadRequest(
          "request body: over a limit of the JSON reader: " + JacksonLimits.describe(limit));
    }
    return new BadRequest("request body: not valid JSON: " + e.getOriginalMessage());
  }

  /**
   * Reads {@code ExtenderArgs}. The body is streamed rather than read as a tree: with {@code
   * nodeCacheCapable} it is mostly thousands of node names, read straight into the list.
   */
  public static ExtenderArgs extenderArgs(byte[] body) throws BadRequest {
    Fields fields;
    try (JsonParser p = JSON.getFactory().createParser(body)) {
      fields = topLevelFields(p, body);
    } catch (JsonProcessingException e) {
      throw notJson(e);
    } catch (IOException e) {
      throw new BadRequest("request body: " + e.getMessage());
    }
    RequestPod pod = RequestPod.of(pod(fields.pod(), "Pod"), fields.pod());
    JsonNode nodes = fields.nodes();
    if (fields.nodeNames().isPresent()) {
      return new ExtenderArgs(pod, fields.nodeNames().get(), Optional.empty());
    }
    if (isNull(nodes)) {
      throw new BadRequest("NodeNames, Nodes: one of them must be set");
    }
    if (!nodes.isObject()) {
      throw new BadRequest("Nodes: expected a NodeList object");
    }
    JsonNode items = nodes.get("items");
    List<String> nodeNames = new ArrayList<>();
    ImmutableList.Builder<JsonNode> nodeItems = ImmutableList.builder();
    if (!isNull(items)) {
      if (!items.isArray()) {
        throw new BadRequest("Nodes.items: expected an array of nodes");
      }
      for (int i = 0; i < items.size(); i++) {
        JsonNode node = items.get(i);
        nodeNames.add(
            text(node.path("metadata").get("name"), "Nodes.items[" + i + "].metadata.name"));
        nodeItems.add(node);
      }
    }
    return new ExtenderArgs(pod, NodeNames.of(nodeNames), Optional.of(nodeItems.build()));
  }

  /**
   * The three fields of {@code ExtenderArgs}, each matched as {@link #field} does (exactly if
   * present, else the first key equal ignoring case); {@code nodeNames} is empty when absent or
   * {@code null}.
   */
  private record Fields(JsonNode pod, JsonNode nodes, Optional<NodeNames> nodeNames) {}

  private static Fields topLevelFields(JsonParser p, byte[] body) throws IOException, BadRequest {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new BadRequest("request body: expected a JSON object");
    }
    Map<String, JsonNode> exact = new HashMap<>();
    Map<String, JsonNode> anyCase = new HashMap<>();
    Optional<NodeNames> names = Optional.empty();
    boolean namesSeen = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      if (key.equalsIgnoreCase("NodeNames")) {
        // an exact key wins over any other capitalisation, which counts only the first time
        if (key.equals("NodeNames") || !namesSeen) {
          names = nodeNames(p, body);
          namesSeen = true;
        } else {
          p.skipChildren();
        }
      } else if (key.equalsIgnoreCase("Pod") || key.equalsIgnoreCase("Nodes")) {
        JsonNode value = SUBTREE.readTree(p);
        String canonical = key.equalsIgnoreCase("Pod") ? "Pod" : "Nodes";
        if (key.equals(canonical)) {
          exact.put(canonical, value);
        } else {
          anyCase.putIfAbsent(canonical, value);
        }
      } else {
        p.skipChildren();
      }
    }
    if (p.nextToken() != null) {
      throw new BadRequest("request body: not valid JSON: trailing content after the object");
    }
    return new Fields(
        exact.getOrDefault("Pod", anyCase.get("Pod")),
        exact.getOrDefault("Nodes", anyCase.get("Nodes")),
        names);
  }

  /** The node names at the parser's current token (empty for {@code null}). */
  private static Optional<NodeNames> nodeNames(JsonParser p, byte[] body)
      throws IOException, BadRequest {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return Optional.empty();
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new BadRequest("NodeNames: expected an array of node names");
    }
    return Optional.of(NodeNames.read(p, body));
  }

  public static PreemptionArgs preemptionArgs(byte[] body) throws BadRequest {
    JsonNode root = object(body);
    PodRef pod = pod(field(root, "Pod"), "Pod");
    JsonNode meta = field(root, "NodeNameToMetaVictims");
    JsonNode full = field(root, "NodeNameToVictims");
    boolean metaForm = !isNull(meta);
    JsonNode map = metaForm ? meta : full;
    String mapKey = metaForm ? "NodeNameToMetaVictims" : "NodeNameToVictims";
    ImmutableSortedMap.Builder<String, NodeVictims> out = ImmutableSortedMap.naturalOrder();
    if (isNull(map)) {
      return new PreemptionArgs(pod, out.build());
    }
    if (!map.isObject()) {
      throw new BadRequest(mapKey + ": expected an object of node name to victims");
    }
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      String at = mapKey + "." + e.getKey();
      if (!e.getValue().isObject()) {
        throw new BadRequest(at + ": expected an object with Pods and NumPDBViolations");
      }
      JsonNode pods = field(e.getValue(), "Pods");
      ImmutableList.Builder<String> uids = ImmutableList.builder();
      if (!isNull(pods)) {
        if (!pods.isArray()) {
          throw new BadRequest(at + ".Pods: expected an array");
        }
        for (int i = 0; i < pods.size(); i++) {
          JsonNode p = pods.get(i);
          String where = at + ".Pods[" + i + "]";
          uids.add(
              metaForm
                  ? text(field(p, "UID"), where + ".UID")
                  : text(p.path("metadata").get("uid"), where + ".metadata.uid"));
        }
      }
      JsonNode pdb = field(e.getValue(), "NumPDBViolations");
      long violations = 0;
      if (!isNull(pdb)) {
        if (!pdb.canConvertToLong() || !pdb.isIntegralNumber()) {
          throw new BadRequest(at + ".NumPDBViolations: expected an integer");
        }
        violations = pdb.asLong();
      }
      out.put(e.getKey(), new NodeVictims(uids.build(), violations));
    }
    return new PreemptionArgs(pod, out.build());
  }

  public static BindingArgs bindingArgs(byte[] body) throws BadRequest {
    JsonNode root = object(body);
    String name = text(field(root, "PodName"), "PodName");
    String namespace = text(field(root, "PodNamespace"), "PodNamespace");
    JsonNode uid = field(root, "PodUID");
    String node = text(field(root, "Node"), "Node");
    if (name.isEmpty()) {
      throw new BadRequest("PodName: must not be empty");
    }
    if (node.isEmpty()) {
      throw new BadRequest("Node: must not be empty");
    }
    return new BindingArgs(
        new PodRef(namespace, name, isNull(uid) ? "" : text(uid, "PodUID")), node);
  }

  /**
   * Writes {@code ExtenderFilterResult} to {@code out}, in the form the request came in ({@code
   * nodeItems} or names).
   */
  public static void filterResult(FilterResult r, ExtenderArgs request, OutputStream out) {
    write(
        out,
        g -> {
          g.writeStartObject();
          g.writeFieldName("Nodes");
          if (request.nodeItems().isPresent()) {
            Set<String> passing = new HashSet<>(r.passing());
            g.writeStartObject();
            g.writeStringField("apiVersion", "v1");
            g.writeStringField("kind", "NodeList");
            g.writeArrayFieldStart("items");
            for (JsonNode node : request.nodeItems().get()) {
              if (passing.contains(node.path("metadata").path("name").asText())) {
                JSON.writeTree(g, node);
              }
            }
            g.writeEndArray();
            g.writeEndObject();
          } else {
            g.writeNull();
          }
          g.writeFieldName("NodeNames");
          if (request.nodeItems().isPresent()) {
            g.writeNull();
          } else {
            g.writeStartArray();
            for (int i = 0; i < r.passing().size(); i++) {
              r.passing().write(g, i);
            }
            g.writeEndArray();
          }
          writeMap(g, "FailedNodes", r.failedNodes());
          writeMap(g, "FailedAndUnresolvableNodes", r.failedAndUnresolvableNodes());
          g.writeStringField("Error", r.error());
          g.writeEndObject();
        });
  }

  /** Writes {@code HostPriorityList} to {@code out}. */
  public static void priorities(List<HostPriority> list, OutputStream out) {
    write(
        out,
        g -> {
          g.writeStartArray();
          for (HostPriority p : list) {
            g.writeStartObject();
            g.writeStringField("Host", p.host());
            g.writeNumberField("Score", p.score());
            g.writeEndObject();
          }
          g.writeEndArray();
        });
  }

  /** Writes {@code ExtenderPreemptionResult} to {@code out}: always the meta form (UIDs). */
  public static void preemptionResult(Map<String, NodeVictims> victims, OutputStream out) {
    write(
        out,
        g -> {
          g.writeStartObject();
          g.writeObjectFieldStart("NodeNameToMetaVictims");
          for (Map.Entry<String, NodeVictims> e : victims.entrySet()) {
            g.writeObjectFieldStart(e.getKey());
            g.writeArrayFieldStart("Pods");
            for (String uid : e.getValue().podUids()) {
              g.writeStartObject();
              g.writeStringField("UID", uid);
              g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("NumPDBViolations", e.getValue().numPdbViolations());
            g.writeEndObject();
          }
          g.writeEndObject();
          g.writeEndObject();
        });
  }

  /**
   * Writes {@code ExtenderBindingResult} to {@code out}; the empty string when the bind succeeded.
   */
  public static void bindingResult(String error, OutputStream out) {
    write(out, errorBody(error));
  }

  /** {@code {"Error": message}}: the body of every error answer too. */
  public static byte[] error(String message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(out, errorBody(message));
    return out.toByteArray();
  }

  private static Body errorBody(String message) {
    return g -> {
      g.writeStartObject();
      g.writeStringField("Error", message);
      g.writeEndObject();
    };
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static void write(OutputStream out, Body body) {
    try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      // answers are written to memory, which fails only on a bug
      throw new UncheckedIOException(e);
    }
  }

  private static void writeMap(JsonGenerator g, String key, Map<String, String> map)
      throws IOException {
    g.writeObjectFieldStart(key);
    // most failed nodes share one message: encode it once, not once per node
    String last = null;
    SerializedString encoded = null;
    for (Map.Entry<String, String> e : map.entrySet()) {
      if (!e.getValue().equals(last)) {
        last = e.getValue();
        encoded = new SerializedString(last);
      }
      g.writeFieldName(e.getKey());
      g.writeString(encoded);
    }
    g.writeEndObject();
  }

  private static PodRef pod(JsonNode pod, String at) throws BadRequest {
    if (isNull(pod)) {
      throw new BadRequest(at + ": is required");
    }
    if (!pod.isObject()) {
      throw new BadRequest(at + ": expected a Pod object");
    }
    JsonNode meta = pod.get("metadata");
    if (meta == null || !meta.isObject()) {
      throw new BadRequest(at + ".metadata: expected an object");
    }
    String name = text(meta.get("name"), at + ".metadata.name");
    if (name.isEmpty()) {
      throw new BadRequest(at + ".metadata.name: must not be empty");
    }
    JsonNode ns = meta.get("namespace");
    JsonNode uid = meta.get("uid");
    return new PodRef(
        isNull(ns) ? "default" : text(ns, at + ".metadata.namespace"),
        name,
        isNull(uid) ? "" : text(uid, at + ".metadata.uid"));
  }

  private static String text(JsonNode node, String at) throws BadRequest {
    if (node == null || !node.isTextual()) {
      throw new BadRequest(at + ": expected a string");
    }
    return node.asText();
  }

  private static boolean isNull(JsonNode node) {
    return node == null || node.isNull();
  }

  /** The value of {@code key}, matched as Go does: exactly if present, else ignoring case. */
  static JsonNode field(JsonNode object, String key) {
    if (object == null || !object.isObject()) {
      return null;
    }
    JsonNode exact = object.get(key);
    if (exact != null) {
      return exact;
    }
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        return e.getValue();
      }
    }
    return null;
  }
}
