package io.gantry.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.hash.Hashing;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.kubemodel.kai.SharedGpuPods;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The webhook's half of a fraction pod's environment in reservation-pods mode (KAI's §7 env
 * injection): the pod is named a ConfigMap prefix in annotation {@value
 * SharedGpuPods#ENV_CONFIGMAP_ANNOTATION} ({@code <pod or generateName, 30 characters at most>-<7
 * hex of the review's uid>-shared-gpu}, so that pods of one ReplicaSet differ), and its first
 * container reads its environment from that ConfigMap ({@code envFrom}), which the binder writes
 * with the gpu-sharing contract's variables once the GPU's UUID is known. An MPS pod also gets its
 * GPU's MPS pipe directory mounted where the contract says ({@link #mpsPipeDirectory}).
 */
final class SharedGpuEnvironment {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PREFIX_BASE_CHARS = 30;
  private static final String MPS_VOLUME = "gantry-mps-pipe";

  private SharedGpuEnvironment() {}

  /**
   * Why {@code request} cannot be given its environment, if it cannot: an MPS request over several
   * GPUs. Each GPU has its own MPS control daemon with its pipes in {@code /tmp/nvidia-mps/<uuid>},
   * and a container reaches a daemon through its one {@code CUDA_MPS_PIPE_DIRECTORY}: with {@code
   * NVIDIA_VISIBLE_DEVICES=uuidA,uuidB} the mount's {@code subPathExpr} would name a directory no
   * daemon serves, and no second mount could make the CUDA client use two daemons. Refusing at
   * admission says so once, instead of a container whose CUDA calls hang or fail on its node.
   */
  static Optional<String> refusal(GpuSharingRequest request) {
    if (request.computeMode() != ComputeMode.MPS || request.numDevices() == 1) {
      return Optional.empty();
    }
    return Optional.of(
        GpuSharingAnnotations.MPS
            + ": \"true\" with "
            + GpuSharingAnnotations.NUM_DEVICES
            + ": \""
            + request.numDevices()
            + "\" cannot be served with reservation pods: each GPU has its own MPS control daemon"
            + " with its pipes in "
            + GpuEnforcement.MPS_PIPE_DIRECTORY
            + "/<gpu-uuid>, and a container reaches one daemon through its one pipe directory ("
            + GpuEnforcement.CUDA_MPS_PIPE_DIRECTORY
            + "); ask for one device (drop "
            + GpuSharingAnnotations.NUM_DEVICES
            + " or set it to \"1\") or drop "
            + GpuSharingAnnotations.MPS);
  }

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
      mpsPipeDirectory(patch, pod, container);
    }
    return patch;
  }

  /**
   * The GPU's MPS pipe directory at the contract's path. The device agent runs one control daemon
   * per GPU with its pipes in {@code /tmp/nvidia-mps/<uuid>} on the host, and the UUID is known
   * only at the bind, so the container mounts the host directory with {@code subPathExpr:
   * $(NVIDIA_VISIBLE_DEVICES)}: the kubelet expands it from the environment ConfigMap the binder
   * writes, which names the one reserved GPU by UUID. A mount the pod already has at that path
   * (KAI's MPS manifests mount the host's {@code /tmp/nvidia-mps} themselves) is replaced: two
   * mounts at one path are invalid, and the whole directory would hold no daemon's pipes.
   */
  private static void mpsPipeDirectory(ArrayNode patch, JsonNode pod, String container) {
    ObjectNode volume = JSON.createObjectNode().put("name", MPS_VOLUME);
    volume
        .putObject("hostPath")
        .put("path", GpuEnforcement.MPS_PIPE_DIRECTORY)
        .put("type", "DirectoryOrCreate");
    add(patch, pod.path("spec"), "/spec", "volumes", volume);
    ObjectNode mount =
        JSON.createObjectNode()
            .put("name", MPS_VOLUME)
            .put("mountPath", GpuEnforcement.MPS_PIPE_DIRECTORY)
            .put("subPathExpr", "$(" + GpuEnforcement.NVIDIA_VISIBLE_DEVICES + ")");
    JsonNode mounts = pod.path("spec").path("containers").get(0).path("volumeMounts");
    for (int i = 0; i < mounts.size(); i++) {
      if (stripSlash(mounts.get(i).path("mountPath").asText(""))
          .equals(GpuEnforcement.MPS_PIPE_DIRECTORY)) {
        patch
            .addObject()
            .put("op", "replace")
            .put("path", container + "/volumeMounts/" + i)
            .set("value", mount);
        return;
      }
    }
    add(patch, pod.path("spec").path("containers").get(0), container, "volumeMounts", mount);
  }

  private static String stripSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
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
