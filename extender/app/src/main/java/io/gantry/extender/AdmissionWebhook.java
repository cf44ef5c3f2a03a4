package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.wire.BadRequest;
import io.gantry.extender.wire.WireCodec;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.kubemodel.kai.KaiObjectException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pod admission webhook ({@code AdmissionReview} {@code admission.k8s.io/v1}, mutating): a pod
 * whose GPU-sharing annotations break KAI's rules ({@code gpu-fraction}, {@code gpu-memory}, {@code
 * gpu-fraction-num-devices}) is denied with KAI's message. A fraction pod gets, in reservation-pods
 * mode (where an MPS pod over several GPUs is denied, {@link SharedGpuEnvironment#refusal}), the
 * reference to the environment ConfigMap the binder fills with its GPU's UUID ({@link
 * SharedGpuEnvironment}); in device-plugin mode the extended resource {@value #GPU_SHARE} (request
 * and limit 1) on its first container, so kube-scheduler sends it to the extender ({@code
 * managedResources}) and the kubelet to the device agent. Pods in a skipped namespace are admitted
 * unchanged. A review whose pod cannot be read is answered per the failure policy: denied ({@code
 * Fail}) or admitted unchanged ({@code Ignore}). A pod whose queue label names a queue that holds
 * no jobs is admitted with a warning ({@link QueueLabelCheck}).
 */
public final class AdmissionWebhook {
  public static final String GPU_SHARE = "gantry.io/gpu-share";
  private static final String NVIDIA_GPU = "nvidia.com/gpu";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What to answer when the pod under review cannot be read. */
  public enum FailurePolicy {
    Fail,
    Ignore
  }

  private final FailurePolicy failurePolicy;
  private final ImmutableSet<String> skippedNamespaces;
  private final QueueLabelCheck queueLabels;
  private final GpuSharingMode sharing;

  /**
   * @param sharing how fraction pods get their GPU: with reservation pods they get the environment
   *     ConfigMap's reference ({@link SharedGpuEnvironment}); with Gantry's device plugin the
   *     {@value #GPU_SHARE} resource
   */
  public AdmissionWebhook(
      FailurePolicy failurePolicy,
      ImmutableSet<String> skippedNamespaces,
      QueueLabelCheck queueLabels,
      GpuSharingMode sharing) {
    this.failurePolicy = requireNonNull(failurePolicy, "failurePolicy is null");
    this.skippedNamespaces = requireNonNull(skippedNamespaces, "skippedNamespaces is null");
    this.queueLabels = requireNonNull(queueLabels, "queueLabels is null");
    this.sharing = requireNonNull(sharing, "sharing is null");
  }

  /**
   * Fail on unreadable pods, skip {@code kube-system}, KAI's queue label over {@code cluster},
   * reservation pods.
   */
  public static AdmissionWebhook defaults(ExtenderCluster cluster) {
    return new AdmissionWebhook(
        ExtenderSettings.DEFAULT_WEBHOOK_FAILURE_POLICY,
        ExtenderSettings.DEFAULT_WEBHOOK_SKIPPED_NAMESPACES,
        QueueLabelCheck.kaiDefaults(cluster::queueHierarchy),
        GpuSharingMode.RESERVATION_PODS);
  }

  /**
   * The AdmissionReview answer to {@code body}.
   *
   * @throws BadRequest when the body is no AdmissionReview (no {@code request.uid})
   */
  public byte[] review(byte[] body) throws BadRequest {
    JsonNode review = WireCodec.object(body);
    JsonNode request = review.get("request");
    if (request == null || !request.isObject()) {
      throw new BadRequest("request: expected the AdmissionReview's request object");
    }
    JsonNode uid = request.get("uid");
    if (uid == null || !uid.isTextual()) {
      throw new BadRequest("request.uid: expected a string");
    }
    ObjectNode response = JSON.createObjectNode();
    response.put("uid", uid.asText());
    String namespace = request.path("namespace").asText("");
    JsonNode pod = request.get("object");
    if (skippedNamespaces.contains(namespace)) {
      response.put("allowed", true);
    } else if (pod == null || !pod.isObject() || !pod.path("spec").path("containers").isArray()) {
      boolean allow = failurePolicy == FailurePolicy.Ignore;
      response.put("allowed", allow);
      if (!allow) {
        status(response, "request.object: expected a Pod with spec.containers");
      }
    } else {
      decide(pod, uid.asText(), response);
    }
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", "admission.k8s.io/v1");
    out.put("kind", "AdmissionReview");
    out.set("response", response);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void decide(JsonNode pod, String reviewUid, ObjectNode response) {
    Map<String, String> annotations = new TreeMap<>();
    pod.path("metadata")
        .path("annotations")
        .properties()
        .forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
    JsonNode containers = pod.path("spec").path("containers");
    long wholeGpus = 0;
    for (JsonNode c : containers) {
      wholeGpus += c.path("resources").path("limits").path(NVIDIA_GPU).asLong(0);
    }
    Optional<GpuSharingRequest> request;
    try {
      request = GpuSharingAnnotations.parse(annotations, wholeGpus);
    } catch (KaiObjectException e) {
      response.put("allowed", false);
      status(response, e.problem());
      return;
    }
    Optional<String> refusal =
        sharing == GpuSharingMode.RESERVATION_PODS
            ? request.flatMap(SharedGpuEnvironment::refusal)
            : Optional.empty();
    if (refusal.isPresent()) {
      response.put("allowed", false);
      status(response, refusal.get());
      return;
    }
    response.put("allowed", true);
    Map<String, String> labels = new TreeMap<>();
    pod.path("metadata")
        .path("labels")
        .properties()
        .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    queueLabels.warning(labels).ifPresent(w -> response.putArray("warnings").add(w));
    if (request.isEmpty() || containers.isEmpty()) {
      return;
    }
    ArrayNode patch =
        sharing == GpuSharingMode.RESERVATION_PODS
            ? SharedGpuEnvironment.patch(pod, reviewUid, request.get().computeMode())
            : gpuSharePatch(containers);
    response.put("patchType", "JSONPatch");
    response.put(
        "patch",
        Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
  }

  /** The {@value #GPU_SHARE} request and limit on the first container. */
  private static ArrayNode gpuSharePatch(JsonNode containers) {
    ArrayNode patch = JSON.createArrayNode();
    JsonNode resources = containers.get(0).get("resources");
    String at = "/spec/containers/0/resources";
    if (resources == null || !resources.isObject()) {
      ObjectNode value = JSON.createObjectNode();
      value.putObject("requests").put(GPU_SHARE, "1");
      value.putObject("limits").put(GPU_SHARE, "1");
      patch.addObject().put("op", "add").put("path", at).set("value", value);
    } else {
      for (String part : new String[] {"requests", "limits"}) {
        if (resources.get(part) == null || !resources.get(part).isObject()) {
          ObjectNode value = JSON.createObjectNode().put(GPU_SHARE, "1");
          patch.addObject().put("op", "add").put("path", at + "/" + part).set("value", value);
        } else {
          patch
              .addObject()
              .put("op", "add")
              .put("path", at + "/" + part + "/" + GPU_SHARE.replace("/", "~1"))
              .put("value", "1");
        }
      }
    }
    return patch;
  }

  private static void status(ObjectNode response, String message) {
    response.putObject("status").put("code", 400).put("message", message);
  }
}
