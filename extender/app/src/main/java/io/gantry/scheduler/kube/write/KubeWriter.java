package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupList;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.informers.DraInformers;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Every write the scheduler makes, in one place, over client-java 27. Patches go through {@link
 * PatchUtils} so the right content type is sent (OkHttp sends their bodies chunked). A failure
 * throws {@link ApiException} carrying the HTTP code; callers decide what is retried.
 */
public final class KubeWriter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CLAIMS = "resourceclaims";

  private final ApiClient client;
  private final CoreV1Api core;
  private final CustomObjectsApi custom;
  private final GenericKubernetesApi<KaiPodGroup, KaiPodGroupList> podGroups;

  public KubeWriter(ApiClient client) {
    this.client = requireNonNull(client, "client is null");
    this.core = new CoreV1Api(client);
    this.custom = new CustomObjectsApi(client);
    this.podGroups =
        new GenericKubernetesApi<>(
            KaiPodGroup.class,
            KaiPodGroupList.class,
            KaiPodGroup.GROUP,
            KaiPodGroup.VERSION,
            KaiPodGroup.PLURAL,
            client);
  }

  /** Creates the PodGroup; one that already exists (409) is left as it is. */
  public void createPodGroup(KaiPodGroup pg) throws ApiException {
    KubernetesApiResponse<KaiPodGroup> response = podGroups.create(pg);
    if (!response.isSuccess() && response.getHttpStatusCode() != 409) {
      throw new ApiException(
          response.getHttpStatusCode(),
          "creating PodGroup "
              + pg.getMetadata().getNamespace()
              + "/"
              + pg.getMetadata().getName()
              + ": "
              + (response.getStatus() == null ? "" : response.getStatus().getMessage()));
    }
  }

  /** JSON merge patch of the pod's metadata. */
  public void patchPod(String namespace, String name, String mergePatch) throws ApiException {
    PatchUtils.patch(
        V1Pod.class,
        () -> core.patchNamespacedPod(name, namespace, new V1Patch(mergePatch)).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }

  /** Strategic merge patch of the pod's status (conditions merge by type). */
  void patchPodStatus(String namespace, String name, String strategicPatch) throws ApiException {
    PatchUtils.patch(
        V1Pod.class,
        () ->
            core.patchNamespacedPodStatus(name, namespace, new V1Patch(strategicPatch))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH,
        client);
  }

  /**
   * Creates the {@code pods/binding} subresource. The API server answers 201 with a {@code Status},
   * which client-java 27's {@code V1Binding} cannot read (protocols.md §7.1), so the call is made
   * at the HTTP level and judged by its code.
   *
   * @return the HTTP status code and, for a failure, the response body
   */
  public BindResponse bind(String namespace, String name, String node)
      throws ApiException, IOException {
    return bind(namespace, name, node, Map.of());
  }

  /**
   * As {@link #bind(String, String, String)}, with annotations the API server sets on the pod in
   * the same write that sets its node (the {@code pods/binding} REST storage merges a Binding's
   * annotations into the pod's): one request instead of a patch and a binding, and the pod is never
   * seen bound without them.
   */
  public BindResponse bind(
      String namespace, String name, String node, Map<String, String> annotations)
      throws ApiException, IOException {
    V1ObjectMeta meta = new V1ObjectMeta().name(name).namespace(namespace);
    if (!annotations.isEmpty()) {
      meta.annotations(new TreeMap<>(annotations));
    }
    V1Binding binding =
        new V1Binding()
            .apiVersion("v1")
            .kind("Binding")
            .metadata(meta)
            .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
    try (Response response =
        core.createNamespacedPodBinding(name, namespace, binding).buildCall(null).execute()) {
      ResponseBody body = response.body();
      String text = response.isSuccessful() || body == null ? "" : body.string();
      return new BindResponse(response.code(), text);
    }
  }

  /** An HTTP answer to a binding. */
  public record BindResponse(int code, String body) {
    public boolean ok() {
      return code == 200 || code == 201;
    }
  }

  /**
   * Creates the pod.
   *
   * @return false when a pod of that name exists already (409)
   */
  public boolean createPod(V1Pod pod) throws ApiException {
    try {
      core.createNamespacedPod(pod.getMetadata().getNamespace(), pod).execute();
      return true;
    } catch (ApiException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  /** The pods of {@code namespace} that match {@code labelSelector}, as the API server has them. */
  public JsonNode listPods(String namespace, String labelSelector) throws ApiException {
    return read(
        core.listNamespacedPod(namespace).labelSelector(labelSelector).buildCall(null),
        "pods of " + namespace + " with " + labelSelector);
  }

  /**
   * Creates the ConfigMap, or replaces the data of the one of that name (a retried bind writes it
   * again).
   */
  public void writeConfigMap(V1ConfigMap map) throws ApiException {
    String namespace = map.getMetadata().getNamespace();
    try {
      core.createNamespacedConfigMap(namespace, map).execute();
    } catch (ApiException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      core.replaceNamespacedConfigMap(map.getMetadata().getName(), namespace, map).execute();
    }
  }

  /** Deletes the pod if it is still the one with {@code uid}. */
  public void deletePod(String namespace, String name, String uid) throws ApiException {
    try (Response response =
        core.deleteNamespacedPod(name, namespace)
            .body(new V1DeleteOptions().preconditions(new V1Preconditions().uid(uid)))
            .buildCall(null)
            .execute()) {
      if (!response.isSuccessful() && response.code() != 404 && response.code() != 409) {
        throw new ApiException(response.code(), "deleting pod " + namespace + "/" + name);
      }
    } catch (IOException e) {
      throw new ApiException(e);
    }
  }

  /** JSON merge patch of a PodGroup (its metadata and spec). */
  public void patchPodGroup(String namespace, String name, String mergePatch) throws ApiException {
    V1Patch patch = new V1Patch(mergePatch);
    mergePatch(
        () ->
            custom
                .patchNamespacedCustomObject(
                    KaiPodGroup.GROUP,
                    KaiPodGroup.VERSION,
                    namespace,
                    KaiPodGroup.PLURAL,
                    name,
                    patch)
                .buildCall(null));
  }

  /** JSON merge patch of a PodGroup's status subresource. */
  void patchPodGroupStatus(String namespace, String name, String mergePatch) throws ApiException {
    V1Patch patch = new V1Patch(mergePatch);
    mergePatch(
        () ->
            custom
                .patchNamespacedCustomObjectStatus(
                    KaiPodGroup.GROUP,
                    KaiPodGroup.VERSION,
                    namespace,
                    KaiPodGroup.PLURAL,
                    name,
                    patch)
                .buildCall(null));
  }

  /**
   * Sends a JSON merge patch call with its content type; the answer is not read into a model.
   *
   * @return the answer as plain maps and lists
   */
  private Object mergePatch(PatchUtils.PatchCallFunc call) throws ApiException {
    return PatchUtils.patch(Object.class, call, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
  }

  /** JSON merge patch of a Queue's status subresource. */
  void patchQueueStatus(String name, String mergePatch) throws ApiException {
    V1Patch patch = new V1Patch(mergePatch);
    mergePatch(
        () ->
            custom
                .patchClusterCustomObjectStatus(
                    KaiQueue.GROUP, KaiQueue.VERSION, KaiQueue.PLURAL, name, patch)
                .buildCall(null));
  }

  /** The ResourceClaim as the API server has it now (not the cache's copy). */
  JsonNode getResourceClaim(String namespace, String name) throws ApiException {
    return read(
        custom
            .getNamespacedCustomObject(
                DraInformers.GROUP, DraInformers.VERSION, namespace, CLAIMS, name)
            .buildCall(null),
        "ResourceClaim " + namespace + "/" + name);
  }

  /** The pod as the API server has it now. */
  JsonNode getPod(String namespace, String name) throws ApiException {
    return read(
        core.readNamespacedPod(name, namespace).buildCall(null), "pod " + namespace + "/" + name);
  }

  /**
   * JSON merge patch of a ResourceClaim (its metadata); a {@code metadata.resourceVersion} in the
   * patch makes it conditional (409 when the claim changed).
   *
   * @return the claim as written
   */
  JsonNode patchResourceClaim(String namespace, String name, String mergePatch)
      throws ApiException {
    V1Patch patch = new V1Patch(mergePatch);
    return JSON.valueToTree(
        mergePatch(
            () ->
                custom
                    .patchNamespacedCustomObject(
                        DraInformers.GROUP, DraInformers.VERSION, namespace, CLAIMS, name, patch)
                    .buildCall(null)));
  }

  /** JSON merge patch of a ResourceClaim's status subresource, conditional as above. */
  JsonNode patchResourceClaimStatus(String namespace, String name, String mergePatch)
      throws ApiException {
    V1Patch patch = new V1Patch(mergePatch);
    return JSON.valueToTree(
        mergePatch(
            () ->
                custom
                    .patchNamespacedCustomObjectStatus(
                        DraInformers.GROUP, DraInformers.VERSION, namespace, CLAIMS, name, patch)
                    .buildCall(null)));
  }

  /** Sends a GET and reads the answer as JSON; a failure throws with the HTTP code. */
  private static JsonNode read(okhttp3.Call call, String what) throws ApiException {
    try (Response response = call.execute()) {
      ResponseBody body = response.body();
      String text = body == null ? "" : body.string();
      if (!response.isSuccessful()) {
        throw new ApiException(
            "reading " + what + ": HTTP " + response.code(), response.code(), null, text);
      }
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new ApiException(e);
    }
  }

  void createEvent(CoreV1Event event) throws ApiException {
    core.createNamespacedEvent(event.getMetadata().getNamespace(), event).execute();
  }
}
