package io.gantry.scheduler.kube.write;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.gantry.kubemodel.dra.DraManifests;
import io.gantry.kubemodel.selector.NodeSelectorJson;
import io.gantry.scheduler.model.dra.AllocationConfig;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Optional;

/**
 * A ResourceClaim's {@code status} in JSON and back (protocols.md §4.3, §4.5 item 6): the
 * allocation's device results, its opaque configurations ({@code devices.config}, whose {@code
 * parameters} pass through as JSON), and its node selector (for node-local devices one node by
 * {@code metadata.name}, for selected devices their selectors' requirements, as kube-scheduler's
 * {@code createNodeSelector} builds it), and {@code reservedFor}.
 */
public final class ClaimStatus {
  static final String FINALIZER = "resource.kubernetes.io/delete-protection";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ClaimStatus() {}

  /**
   * The claim's {@code status.allocation}, if any.
   *
   * @throws IllegalArgumentException naming the field when the allocation is not one this scheduler
   *     understands
   */
  public static Optional<AllocationResult> allocation(JsonNode claim) {
    JsonNode allocation = claim.path("status").path("allocation");
    if (allocation.isMissingNode() || allocation.isNull()) {
      return Optional.empty();
    }
    ImmutableList.Builder<DeviceResult> devices = ImmutableList.builder();
    JsonNode results = allocation.path("devices").path("results");
    for (int i = 0; i < results.size(); i++) {
      JsonNode r = results.get(i);
      String field = "status.allocation.devices.results[" + i + "]";
      devices.add(
          new DeviceResult(
              text(r, "request", field),
              text(r, "driver", field),
              text(r, "pool", field),
              text(r, "device", field)));
    }
    return Optional.of(
        new AllocationResult(
            devices.build(),
            configs(allocation.path("devices").path("config")),
            nodeSelector(allocation.path("nodeSelector"))));
  }

  private static ImmutableList<AllocationConfig> configs(JsonNode configs) {
    ImmutableList.Builder<AllocationConfig> out = ImmutableList.builder();
    for (int i = 0; i < configs.size(); i++) {
      JsonNode c = configs.get(i);
      String field = "status.allocation.devices.config[" + i + "]";
      AllocationConfig.Source source;
      try {
        source = AllocationConfig.Source.parse(text(c, "source", field));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(field + ".source: " + e.getMessage(), e);
      }
      ImmutableList.Builder<String> requests = ImmutableList.builder();
      JsonNode names = c.path("requests");
      for (int r = 0; r < names.size(); r++) {
        requests.add(text(names, r, field + ".requests"));
      }
      JsonNode opaque = c.path("opaque");
      JsonNode parameters = opaque.path("parameters");
      if (!parameters.isObject()) {
        throw new IllegalArgumentException(
            field + ".opaque.parameters: expected a JSON object, got " + parameters);
      }
      out.add(
          new AllocationConfig(
              source,
              requests.build(),
              new OpaqueConfig(text(opaque, "driver", field + ".opaque"), parameters.toString())));
    }
    return out.build();
  }

  private static ImmutableList<NodeSelectorTerm> nodeSelector(JsonNode selector) {
    if (selector.isMissingNode() || selector.isNull()) {
      return ImmutableList.of();
    }
    return DraManifests.allocationNodeSelector(selector.toString());
  }

  /** The names of the pods in {@code status.reservedFor}. */
  public static ImmutableList<String> reservedPods(JsonNode claim) {
    ImmutableList.Builder<String> out = ImmutableList.builder();
    for (JsonNode r : claim.path("status").path("reservedFor")) {
      if (isPod(r)) {
        out.add(r.path("name").asText());
      }
    }
    return out.build();
  }

  /** Whether the cached claim's {@code status.reservedFor} holds the consumer with this UID. */
  static boolean reservesUid(DynamicKubernetesObject claim, String uid) {
    JsonObject status = claim.getRaw().getAsJsonObject("status");
    JsonElement reservedFor = status == null ? null : status.get("reservedFor");
    if (reservedFor == null || !reservedFor.isJsonArray()) {
      return false;
    }
    for (JsonElement r : reservedFor.getAsJsonArray()) {
      JsonElement u = r.isJsonObject() ? r.getAsJsonObject().get("uid") : null;
      if (u != null && u.isJsonPrimitive() && uid.equals(u.getAsString())) {
        return true;
      }
    }
    return false;
  }

  static boolean isPod(JsonNode consumer) {
    return consumer.path("apiGroup").asText("").isEmpty()
        && consumer.path("resource").asText().equals("pods");
  }

  /** The allocation as {@code status.allocation} is written. */
  static ObjectNode json(AllocationResult allocation) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    ArrayNode results = out.putObject("devices").putArray("results");
    for (DeviceResult d : allocation.devices()) {
      results
          .addObject()
          .put("request", d.request())
          .put("driver", d.driver())
          .put("pool", d.pool())
          .put("device", d.device());
    }
    if (!allocation.config().isEmpty()) {
      ArrayNode configs = ((ObjectNode) out.get("devices")).putArray("config");
      for (AllocationConfig c : allocation.config()) {
        ObjectNode config = configs.addObject().put("source", c.source().apiName());
        if (!c.requests().isEmpty()) {
          ArrayNode requests = config.putArray("requests");
          c.requests().forEach(requests::add);
        }
        config
            .putObject("opaque")
            .put("driver", c.opaque().driver())
            .set("parameters", parameters(c.opaque()));
      }
    }
    if (!allocation.nodeSelectorTerms().isEmpty()) {
      NodeSelectorJson.writeTerms(
          out.putObject("nodeSelector").putArray("nodeSelectorTerms"),
          allocation.nodeSelectorTerms());
    }
    return out;
  }

  /** A {@code reservedFor} entry for a pod. */
  static ObjectNode podConsumer(String name, String uid) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    return out.put("resource", "pods").put("name", name).put("uid", uid);
  }

  private static JsonNode parameters(OpaqueConfig opaque) {
    try {
      return JSON.readTree(opaque.parametersJson());
    } catch (JsonProcessingException e) {
      // the binders make the text from a JSON object; text that is not JSON is a bug here
      throw new IllegalStateException("parameters are not JSON: " + opaque.parametersJson(), e);
    }
  }

  private static String text(JsonNode node, int index, String field) {
    JsonNode v = node.path(index);
    if (!v.isTextual() || v.asText().isEmpty()) {
      throw new IllegalArgumentException(field + "[" + index + "]: expected a non-empty string");
    }
    return v.asText();
  }

  private static String text(JsonNode node, String key, String field) {
    JsonNode v = node.path(key);
    if (!v.isTextual() || v.asText().isEmpty()) {
      throw new IllegalArgumentException(field + "." + key + ": expected a non-empty string");
    }
    return v.asText();
  }
}
