package io.gantry.scheduler.kube.kaisnapshot;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.read.ScenarioException;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * KAI's BindRequest ({@code scheduling.run.ai/v1alpha2}, kai-reference §2.3) as a snapshot lists
 * it: the scheduler chose {@code selectedNode} for pod {@code namespace/podName} and the binder has
 * not bound it yet. {@code podUid} is the uid of the pod that owns it (its ownerReference), empty
 * when it names none; {@code gpuGroups} and {@code portion} are what a fraction received.
 */
public record KaiBindRequest(
    String namespace,
    String podName,
    Optional<String> podUid,
    String selectedNode,
    ImmutableList<String> gpuGroups,
    GpuAmount portion,
    boolean failed) {
  /** KAI's {@code BindRequestPhaseFailed}: the bind gave up, and the pod is pending again. */
  static final String PHASE_FAILED = "Failed";

  public KaiBindRequest {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(podName, "podName is null");
    requireNonNull(podUid, "podUid is null");
    requireNonNull(selectedNode, "selectedNode is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(portion, "portion is null");
  }

  /** The pod it binds, {@code namespace/name}. */
  public String podKey() {
    return namespace + "/" + podName;
  }

  /**
   * Reads one element of {@code rawObjects.bindRequests}; {@code field} names it in errors ({@code
   * rawObjects.bindRequests[2]}).
   */
  static KaiBindRequest read(String source, String field, JsonNode object)
      throws ScenarioException {
    Fields f = new Fields(source, field);
    JsonNode meta = f.object(object, "metadata", true);
    f.string(meta, "metadata.name", true);
    String namespace = f.string(meta, "metadata.namespace", true);
    JsonNode spec = f.object(object, "spec", true);
    String podName = f.string(spec, "spec.podName", true);
    String node = f.string(spec, "spec.selectedNode", true);
    ImmutableList.Builder<String> groups = ImmutableList.builder();
    JsonNode groupList = spec.get("selectedGPUGroups");
    if (groupList != null && !groupList.isNull()) {
      if (!groupList.isArray()) {
        throw f.problem(
            "spec.selectedGPUGroups", "expected a list, got " + KaiSnapshotReader.kind(groupList));
      }
      for (int i = 0; i < groupList.size(); i++) {
        if (!groupList.get(i).isTextual() || groupList.get(i).asText().isEmpty()) {
          throw f.problem(
              "spec.selectedGPUGroups[" + i + "]",
              "expected a GPU group id, got " + KaiSnapshotReader.kind(groupList.get(i)));
        }
        groups.add(groupList.get(i).asText());
      }
    }
    JsonNode received = f.object(spec, "spec.receivedGPU", false);
    String portionText = f.string(received, "spec.receivedGPU.portion", false);
    GpuAmount portion = portionText == null ? GpuAmount.ZERO : portion(f, portionText);
    if (!groups.build().isEmpty() && portionText == null) {
      throw f.problem("spec.receivedGPU.portion", "required with spec.selectedGPUGroups");
    }
    JsonNode status = f.object(object, "status", false);
    String phase = f.string(status, "status.phase", false);
    return new KaiBindRequest(
        namespace,
        podName,
        ownerPodUid(f, meta),
        node,
        groups.build(),
        portion,
        PHASE_FAILED.equals(phase));
  }

  /** KAI's {@code %.2f} portion of a device: a decimal in (0, 1] with at most two places. */
  private static GpuAmount portion(Fields f, String text) throws ScenarioException {
    BigDecimal devices;
    try {
      devices = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw f.problem(
          "spec.receivedGPU.portion", "expected a decimal such as \"0.50\", got " + text);
    }
    BigDecimal hundredths = devices.movePointRight(2);
    if (devices.signum() <= 0
        || devices.compareTo(BigDecimal.ONE) > 0
        || hundredths.stripTrailingZeros().scale() > 0) {
      throw f.problem(
          "spec.receivedGPU.portion",
          "expected a portion of a device in (0, 1] with at most two decimals, got " + text);
    }
    return GpuAmount.ofHundredths(hundredths.longValueExact());
  }

  /** The uid of the Pod among the ownerReferences, if one is named. */
  private static Optional<String> ownerPodUid(Fields f, JsonNode meta) throws ScenarioException {
    JsonNode owners = meta.get("ownerReferences");
    if (owners == null || owners.isNull()) {
      return Optional.empty();
    }
    if (!owners.isArray()) {
      throw f.problem(
          "metadata.ownerReferences", "expected a list, got " + KaiSnapshotReader.kind(owners));
    }
    for (JsonNode owner : owners) {
      if (owner.isObject()
          && "Pod".equals(owner.path("kind").asText())
          && owner.path("uid").isTextual()) {
        return Optional.of(owner.get("uid").asText());
      }
    }
    return Optional.empty();
  }

  /** The fields of one BindRequest, each problem named by its path below {@code field}. */
  private record Fields(String source, String field) {
    ScenarioException problem(String path, String problem) {
      return new ScenarioException(source, 0, field + "." + path, problem);
    }

    /** The object at {@code path} (its last segment under {@code parent}); empty when optional. */
    JsonNode object(JsonNode parent, String path, boolean required) throws ScenarioException {
      JsonNode node = parent.get(last(path));
      if (node == null || node.isNull()) {
        if (required) {
          throw problem(path, "required");
        }
        return MissingNode.getInstance();
      }
      if (!node.isObject()) {
        throw problem(path, "expected an object, got " + KaiSnapshotReader.kind(node));
      }
      return node;
    }

    /** The non-empty string at {@code path}; null when optional and absent. */
    String string(JsonNode parent, String path, boolean required) throws ScenarioException {
      JsonNode node = parent.get(last(path));
      if (node == null || node.isNull() || (node.isTextual() && node.asText().isEmpty())) {
        if (required) {
          throw problem(path, "required");
        }
        return null;
      }
      if (!node.isTextual()) {
        throw problem(path, "expected a string, got " + KaiSnapshotReader.kind(node));
      }
      return node.asText();
    }

    private static String last(String path) {
      return path.substring(path.lastIndexOf('.') + 1);
    }
  }
}
