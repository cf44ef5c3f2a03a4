package io.gantry.deviceagent.reserve;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;

/**
 * The reservation pod's one write: its own annotation {@value #UUID_ANNOTATION} (KAI's name, §1.7)
 * with the UUID of the GPU it holds, which Gantry's binder waits for. The pod's service account may
 * patch its own pod and nothing else ({@link ReserveApiAccess}).
 */
public final class ReservationPod {
  /** KAI's annotation of the reserved GPU's UUID. */
  public static final String UUID_ANNOTATION = "run.ai/reserve_for_gpu_index";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ApiClient client;
  private final String namespace;
  private final String name;

  public ReservationPod(ApiClient client, String namespace, String name) {
    this.client = requireNonNull(client, "client is null");
    this.namespace = requireNonNull(namespace, "namespace is null");
    this.name = requireNonNull(name, "name is null");
  }

  /** Publishes {@code uuid} on the pod (a JSON merge patch of its annotations). */
  public void publish(String uuid) throws ApiException {
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("annotations").put(UUID_ANNOTATION, uuid);
    CoreV1Api core = new CoreV1Api(client);
    PatchUtils.patch(
        V1Pod.class,
        () ->
            core.patchNamespacedPod(name, namespace, new V1Patch(patch.toString())).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }
}
