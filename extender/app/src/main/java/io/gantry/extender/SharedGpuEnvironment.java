package io.gantry.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.hash.Hashing;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.kubemodel.kai.SharedGpuPods;
import java.nio.charset.StandardCharsets;

/**
 * The webhook's half of a fraction pod's environment in reservation-pods mode (KAI's §7 env
 * injection): the pod is named a ConfigMap prefix in annotation {@value
 * SharedGpuPods#ENV_CONFIGMAP_ANNOTATION} ({@code <pod or generateName, 30 characters at most>-<7
 * hex of the review's uid>-shared-gpu}, so that pods of one ReplicaSet differ), and its first
 * container reads its environment from that ConfigMap ({@code envFrom}), which the binder writes
 * with the gpu-sharing contract's variables once the GPU's UUID is known. An MPS pod also gets the
 * host's MPS pipe directory mounted where the contract says.
 */
final class SharedGpuEnvironment {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PREFIX_BASE_CHARS = 30;
  private static final String MPS_VOLUME = "gantry-mps-pipe";

  private SharedGpuEnvironment() {}

  /** The JSON patch for {@code pod}, reviewed as {@code reviewUid}. */
  static ArrayNode patch(JsonNode pod, String reviewUid, ComputeMode mode) {
    ArrayNode patch = JSON.createArrayNode();
    JsonNode meta = pod.path("metadata");
    String prefix =
        meta.path("annotations").path(SharedGpuPods.ENV_CONFIGMAP_ANNOTATION).asText("");
    if (prefix.isEmpty()) {
      prefix = prefix(meta, reviewUid);
      if (meta.path("annotations").isObject()) {
        patch
            .addObject()
            .put("op", "add")
            .put("path", "/metadata/annotations/" + escape(SharedGpuPods.ENV_CONFIGMAP_ANNOTATION))
            .put("value", prefix);
      } else {
        ObjectNode value =
            JSON.createObjectNode().put(SharedGpuPods.ENV_CONFIGMAP_ANNOTATION, prefix);
        patch.addObject().put("op", "add").put("path", "/metadata/annotations").set("value", value);
      }
    }
    String container = "/spec/containers/0";
    ObjectNode envFrom = JSON.createObjectNode();
    envFrom.putObject("configMapRef").put("name", SharedGpuPods.envConfigMapName(prefix));
    add(patch, pod.path("spec").path("containers").get(0), container, "envFrom", envFrom);
    if (mode == ComputeMode.MPS) {
      ObjectNode volume = JSON.createObjectNode().put("name", MPS_VOLUME);
      volume
          .putObject("hostPath")
          .put("path", GpuEnforcement.MPS_PIPE_DIRECTORY)
          .put("type", "DirectoryOrCreate");
      add(patch, pod.path("spec"), "/spec", "volumes", volume);
      ObjectNode mount =
          JSON.createObjectNode()
              .put("name", MPS_VOLUME)
              .put("mountPath", GpuEnforcement.MPS_PIPE_DIRECTORY);
      add(patch, pod.path("spec").path("containers").get(0), container, "volumeMounts", mount);
    }
    return patch;
  }

  /** Appends {@code item} to {@code parent}'s list {@code field}, creating the list if needed. */
  private static void add(
      ArrayNode patch, JsonNode parent, String parentPath, String field, ObjectNode item) {
    if (parent.path(field).isArray()) {
      patch
          .addObject()
          .put("op", "add")
          .put("path", parentPath + "/" + field + "/-")
          .set("value", item);
    } else {
      ArrayNode list = JSON.createArrayNode().add(item);
      patch.addObject().put("op", "add").put("path", parentPath + "/" + field).set("value", list);
    }
  }

  private static String prefix(JsonNode meta, String reviewUid) {
    String base = meta.path("name").asText("");
    if (base.isEmpty()) {
      base = meta.path("generateName").asText("");
    }
    base = base.replaceAll("-+$", "");
    if (base.isEmpty()) {
      base = "pod";
    }
    if (base.length() > PREFIX_BASE_CHARS) {
      base = base.substring(0, PREFIX_BASE_CHARS).replaceAll("[-.]+$", "");
    }
    String hash = Hashing.sha256().hashString(reviewUid, StandardCharsets.UTF_8).toString();
    return base + "-" + hash.substring(0, 7) + "-shared-gpu";
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}
