package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.dradriver.DriverNames;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAllocationConfiguration;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a claim the kubelet asks to prepare from the API server (the kubelet passes only its name
 * and UID) and keeps what concerns this driver.
 */
public final class ClaimReader {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int NOT_FOUND = 404;

  private final ResourceV1Api api;

  public ClaimReader(ResourceV1Api api) {
    this.api = requireNonNull(api, "api is null");
  }

  /**
   * The claim's allocation for this driver.
   *
   * @throws ClaimException when the claim is gone, is another object of the same name (UID), is not
   *     allocated, or the API server cannot be asked
   */
  public AllocatedClaim read(ClaimRef ref) throws ClaimException {
    ResourceV1ResourceClaim claim;
    try {
      claim = api.readNamespacedResourceClaim(ref.name(), ref.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() == NOT_FOUND) {
        throw new ClaimException("ResourceClaim " + ref.describe() + " not found", e);
      }
      throw new ClaimException(
          "cannot read ResourceClaim " + ref.describe() + ": HTTP " + e.getCode(), e);
    }
    String uid = claim.getMetadata().getUid();
    if (!ref.uid().equals(uid)) {
      throw new ClaimException(
          "ResourceClaim "
              + ref.describe()
              + ": metadata.uid is "
              + uid
              + ", the kubelet asked for "
              + ref.uid());
    }
    V1AllocationResult allocation =
        claim.getStatus() == null ? null : claim.getStatus().getAllocation();
    if (allocation == null || allocation.getDevices() == null) {
      throw new ClaimException(
          "ResourceClaim " + ref.describe() + ": status.allocation: the claim is not allocated");
    }
    return new AllocatedClaim(
        ref,
        results(allocation.getDevices().getResults()),
        configs(allocation.getDevices().getConfig()));
  }

  private static List<AllocatedClaim.Result> results(List<V1DeviceRequestAllocationResult> all) {
    List<AllocatedClaim.Result> ours = new ArrayList<>();
    if (all == null) {
      return ours;
    }
    for (int i = 0; i < all.size(); i++) {
      V1DeviceRequestAllocationResult r = all.get(i);
      if (DriverNames.DRIVER.equals(r.getDriver())) {
        ours.add(
            new AllocatedClaim.Result(
                i, nonNull(r.getRequest()), nonNull(r.getPool()), nonNull(r.getDevice())));
      }
    }
    return ours;
  }

  private static List<AllocatedClaim.Config> configs(List<V1DeviceAllocationConfiguration> all)
      throws ClaimException {
    List<AllocatedClaim.Config> ours = new ArrayList<>();
    if (all == null) {
      return ours;
    }
    for (int i = 0; i < all.size(); i++) {
      V1DeviceAllocationConfiguration c = all.get(i);
      if (c.getOpaque() != null && DriverNames.DRIVER.equals(c.getOpaque().getDriver())) {
        List<String> requests = c.getRequests() == null ? List.of() : c.getRequests();
        ours.add(new AllocatedClaim.Config(i, requests, tree(c.getOpaque().getParameters())));
      }
    }
    return ours;
  }

  /** The parameters (a raw JSON value client-java holds as maps and lists) as a Jackson tree. */
  private static JsonNode tree(Object parameters) throws ClaimException {
    try {
      return wholeNumbers(MAPPER.readTree(JSON.serialize(parameters)));
    } catch (JsonProcessingException e) {
      throw new ClaimException("opaque parameters are not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Gson reads every JSON number of a raw value as a double, so {@code 20000} arrives as {@code
   * 20000.0}; numbers without a fraction become integers again, as the user wrote them.
   */
  private static JsonNode wholeNumbers(JsonNode node) {
    if (node.isDouble()
        && node.asDouble() == Math.rint(node.asDouble())
        && Math.abs(node.asDouble()) < Long.MAX_VALUE) {
      return LongNode.valueOf(node.longValue());
    }
    if (node.isObject()) {
      ObjectNode copy = MAPPER.createObjectNode();
      node.properties().forEach(e -> copy.set(e.getKey(), wholeNumbers(e.getValue())));
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = MAPPER.createArrayNode();
      node.forEach(e -> copy.add(wholeNumbers(e)));
      return copy;
    }
    return node;
  }

  private static String nonNull(String value) {
    return value == null ? "" : value;
  }
}
