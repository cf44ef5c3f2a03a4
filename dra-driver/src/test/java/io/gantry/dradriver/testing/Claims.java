package io.gantry.dradriver.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.dradriver.prepare.ClaimRef;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.fakekube.ResourceStore;
import java.util.ArrayList;
import java.util.List;

/** Allocated ResourceClaims in the fake API server, as the scheduler leaves them. */
public final class Claims {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String name;
  private final List<ObjectNode> results = new ArrayList<>();
  private final List<ObjectNode> configs = new ArrayList<>();
  private boolean allocated = true;

  private Claims(String name) {
    this.name = name;
  }

  /** A claim named {@code name} in namespace {@code default}. */
  public static Claims claim(String name) {
    return new Claims(name);
  }

  /** A result for {@code request}: {@code device} of pool {@code pool}, driver gpu.gantry.io. */
  public Claims result(String request, String pool, String device) {
    return result(request, "gpu.gantry.io", pool, device);
  }

  public Claims result(String request, String driver, String pool, String device) {
    results.add(
        MAPPER
            .createObjectNode()
            .put("request", request)
            .put("driver", driver)
            .put("pool", pool)
            .put("device", device));
    return this;
  }

  /** An opaque configuration for {@code driver} with {@code parametersJson}, for all requests. */
  public Claims config(String source, String driver, String parametersJson) {
    ObjectNode config = MAPPER.createObjectNode().put("source", source);
    config.putArray("requests");
    config.putObject("opaque").put("driver", driver).set("parameters", json(parametersJson));
    configs.add(config);
    return this;
  }

  /** No status.allocation. */
  public Claims unallocated() {
    allocated = false;
    return this;
  }

  /** Creates the claim and writes its status; returns how the kubelet names it. */
  public ClaimRef create(ResourceStore store) {
    ObjectNode claim = MAPPER.createObjectNode();
    claim.put("apiVersion", "resource.k8s.io/v1").put("kind", "ResourceClaim");
    claim.putObject("metadata").put("name", name).put("namespace", "default");
    ObjectNode request =
        claim.putObject("spec").putObject("devices").putArray("requests").addObject();
    request.put("name", "gpu").putObject("exactly").put("deviceClassName", "gpu.gantry.io");
    ObjectNode created = store.create(ResourceKinds.RESOURCE_CLAIMS, "default", claim);
    if (allocated) {
      ObjectNode devices = created.putObject("status").putObject("allocation").putObject("devices");
      ArrayNode r = devices.putArray("results");
      results.forEach(r::add);
      ArrayNode c = devices.putArray("config");
      configs.forEach(c::add);
      store.updateStatus(ResourceKinds.RESOURCE_CLAIMS, "default", name, created);
    }
    return new ClaimRef("default", created.path("metadata").path("uid").asText(), name);
  }

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}
