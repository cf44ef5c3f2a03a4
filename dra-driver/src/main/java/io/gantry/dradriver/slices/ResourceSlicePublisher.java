package io.gantry.dradriver.slices;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.dradriver.DriverNames;
import io.gantry.dradriver.devices.SliceDevice;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's ResourceSlice of {@code gpu.gantry.io} equal to the devices discovery found.
 * The pool's generation goes up by one each time the devices change, also across driver restarts
 * (it continues from the slice already there), so the scheduler drops the old devices (protocols.md
 * §4.1: consumers use the highest generation). An unchanged device list writes nothing. Slices of
 * this driver and node under any other name are deleted. Not thread-safe: one discovery loop calls
 * it.
 */
public final class ResourceSlicePublisher {
  private static final Logger log = LoggerFactory.getLogger(ResourceSlicePublisher.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ResourceV1Api resources;
  private final CoreV1Api core;
  private final String node;

  public ResourceSlicePublisher(ResourceV1Api resources, CoreV1Api core, String node) {
    this.resources = requireNonNull(resources, "resources is null");
    this.core = requireNonNull(core, "core is null");
    this.node = requireNonNull(node, "node is null");
  }

  /**
   * Publishes {@code devices}; returns the pool generation now in the API server.
   *
   * @throws ApiException when the API server refuses a read or write (the caller retries later)
   */
  public long publish(List<SliceDevice> devices) throws ApiException {
    String name = ResourceSlices.name(node);
    Optional<V1ResourceSlice> current = Optional.empty();
    long highestGeneration = 0;
    for (V1ResourceSlice slice : ours()) {
      long generation = slice.getSpec().getPool().getGeneration();
      highestGeneration = Math.max(highestGeneration, generation);
      if (slice.getMetadata().getName().equals(name)) {
        current = Optional.of(slice);
      } else {
        resources.deleteResourceSlice(slice.getMetadata().getName()).execute();
        log.info("deleted stale ResourceSlice {}", slice.getMetadata().getName());
      }
    }
    if (current.isPresent() && sameDevices(current.get().getSpec(), devices)) {
      log.debug("ResourceSlice {} is up to date", name);
      return current.get().getSpec().getPool().getGeneration();
    }
    long generation = highestGeneration + 1;
    if (current.isPresent()) {
      V1ResourceSlice replaced = current.get();
      replaced.setSpec(ResourceSlices.spec(node, generation, devices));
      resources.replaceResourceSlice(name, replaced).execute();
    } else {
      String nodeUid = core.readNode(node).execute().getMetadata().getUid();
      resources
          .createResourceSlice(ResourceSlices.of(node, nodeUid, generation, devices))
          .execute();
    }
    log.info(
        "published ResourceSlice {}: {} GPUs, pool {} generation {}",
        name,
        devices.size(),
        node,
        generation);
    return generation;
  }

  private List<V1ResourceSlice> ours() throws ApiException {
    return resources
        .listResourceSlice()
        .fieldSelector("spec.nodeName=" + node + ",spec.driver=" + DriverNames.DRIVER)
        .execute()
        .getItems();
  }

  /** Compared as JSON, which is what the API server stored and echoes back. */
  private static boolean sameDevices(V1ResourceSliceSpec spec, List<SliceDevice> devices) {
    List<V1Device> wanted = devices.stream().map(ResourceSlices::device).toList();
    List<V1Device> stored = spec.getDevices() == null ? List.of() : spec.getDevices();
    return tree(stored).equals(tree(wanted));
  }

  private static JsonNode tree(List<V1Device> devices) {
    try {
      return withoutEmpty(MAPPER.readTree(JSON.serialize(devices)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("client-java wrote JSON Jackson cannot read", e);
    }
  }

  /**
   * The tree without empty lists and maps: client-java's models start with empty collections, so a
   * slice read back writes {@code "bools": []} where the one built here has nothing.
   */
  private static JsonNode withoutEmpty(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = MAPPER.createObjectNode();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        JsonNode value = withoutEmpty(e.getValue());
        if (!value.isNull() && !(value.isContainerNode() && value.isEmpty())) {
          copy.set(e.getKey(), value);
        }
      }
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = MAPPER.createArrayNode();
      node.forEach(e -> copy.add(withoutEmpty(e)));
      return copy;
    }
    return node;
  }
}
