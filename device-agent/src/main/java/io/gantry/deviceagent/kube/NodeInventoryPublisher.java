package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.deviceagent.publish.GfdLabels;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a node's inventory on its Node object: the {@link InventoryAnnotation} and the {@link
 * GfdLabels}. Reads the node first and sends a JSON merge patch only when a value differs, so a
 * steady node costs one GET per round and writes nothing (no watch event for every scheduler).
 * Labels and the annotation other writers set are left alone.
 */
public final class NodeInventoryPublisher {
  private static final Logger log = LoggerFactory.getLogger(NodeInventoryPublisher.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ApiClient client;
  private final CoreV1Api core;
  private final String nodeName;

  public NodeInventoryPublisher(ApiClient client, String nodeName) {
    this.client = requireNonNull(client, "client is null");
    this.core = new CoreV1Api(client);
    this.nodeName = requireNonNull(nodeName, "nodeName is null");
  }

  /**
   * Makes the node carry {@code inventory}.
   *
   * @return true when the node was patched, false when it already carried these values
   * @throws ApiException when the node cannot be read or patched (for example it does not exist)
   */
  public boolean publish(GpuInventory inventory) throws ApiException {
    String annotation = new InventoryAnnotation(inventory).toJson();
    SortedMap<String, String> labels = GfdLabels.of(inventory);
    V1ObjectMeta meta = core.readNode(nodeName).execute().getMetadata();
    Map<String, String> currentLabels = meta == null ? null : meta.getLabels();
    Map<String, String> currentAnnotations = meta == null ? null : meta.getAnnotations();
    SortedMap<String, String> changedLabels = new TreeMap<>();
    labels.forEach(
        (key, value) -> {
          if (currentLabels == null || !value.equals(currentLabels.get(key))) {
            changedLabels.put(key, value);
          }
        });
    boolean annotationChanged =
        currentAnnotations == null
            || !Objects.equals(annotation, currentAnnotations.get(InventoryAnnotation.KEY));
    if (changedLabels.isEmpty() && !annotationChanged) {
      return false;
    }
    ObjectNode patch = MAPPER.createObjectNode();
    ObjectNode metadata = patch.putObject("metadata");
    if (!changedLabels.isEmpty()) {
      ObjectNode l = metadata.putObject("labels");
      changedLabels.forEach(l::put);
    }
    if (annotationChanged) {
      metadata.putObject("annotations").put(InventoryAnnotation.KEY, annotation);
    }
    PatchUtils.patch(
        V1Node.class,
        () -> core.patchNode(nodeName, new V1Patch(patch.toString())).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
    log.info(
        "published the GPU inventory on node {}: {} GPUs, labels changed {}, annotation changed {}",
        nodeName,
        inventory.devices().size(),
        changedLabels.keySet(),
        annotationChanged);
    return true;
  }
}
