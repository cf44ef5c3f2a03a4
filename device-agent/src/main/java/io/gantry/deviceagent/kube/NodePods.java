package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import java.util.List;

/**
 * The pods bound to this node, read from the API server, and the one write the device plugins make
 * on them: the pod's {@link GpuAllocation} annotation once its devices are resolved.
 */
public final class NodePods {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ApiClient client;
  private final CoreV1Api core;
  private final String nodeName;

  public NodePods(ApiClient client, String nodeName) {
    this.client = requireNonNull(client, "client is null");
    this.core = new CoreV1Api(client);
    this.nodeName = requireNonNull(nodeName, "nodeName is null");
  }

  public String nodeName() {
    return nodeName;
  }

  /** Every pod bound to this node whose containers have not all finished. */
  public ImmutableList<V1Pod> live() throws ApiException {
    List<V1Pod> pods =
        core.listPodForAllNamespaces().fieldSelector(fieldSelector(nodeName)).execute().getItems();
    return pods.stream().filter(NodePods::isLive).collect(ImmutableList.toImmutableList());
  }

  /** The field selector of the pods bound to node {@code nodeName}. */
  public static String fieldSelector(String nodeName) {
    return "spec.nodeName=" + nodeName;
  }

  /** Whether some container of {@code pod} may still run (it has neither succeeded nor failed). */
  public static boolean isLive(V1Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  /** Writes {@code allocation} as the pod's {@value GpuAllocation#ANNOTATION} (a merge patch). */
  public void writeAllocation(PodRef pod, GpuAllocation allocation) throws ApiException {
    ObjectNode patch = MAPPER.createObjectNode();
    patch
        .putObject("metadata")
        .putObject("annotations")
        .put(GpuAllocation.ANNOTATION, GpuAllocationJson.write(allocation));
    PatchUtils.patch(
        V1Pod.class,
        () ->
            core.patchNamespacedPod(pod.name(), pod.namespace(), new V1Patch(patch.toString()))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }
}
