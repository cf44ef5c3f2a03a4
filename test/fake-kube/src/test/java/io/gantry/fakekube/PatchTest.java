package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.util.PatchUtils;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PATCH over HTTP in the three formats, with the request bodies client-java really sends. */
class PatchTest {
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = Clients.apiClient(kube);
  private final CoreV1Api core = new CoreV1Api(client);
  private final Http http = new Http(kube);

  @BeforeEach
  void createPod() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  void mergePatchThroughPatchUtilsWhoseBodyOkHttpSendsChunked() throws ApiException {
    // PatchUtils wraps the body in ProxyContentTypeRequestBody, which has no content length,
    // so OkHttp sends it with Transfer-Encoding: chunked.
    V1Pod patched =
        PatchUtils.patch(
            V1Pod.class,
            () ->
                core.patchNamespacedPod(
                        "p", "default", new V1Patch("{\"metadata\":{\"labels\":{\"team\":\"a\"}}}"))
                    .buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            client);

    assertThat(patched.getMetadata().getLabels()).containsEntry("team", "a");
    assertThat(patched.getMetadata().getResourceVersion()).isEqualTo("2");
  }

  @Test
  void chunkedRequestBodyFromTheJdkClientIsReadWhole() {
    byte[] body = "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}".getBytes(StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(http.uri("/api/v1/namespaces/default/pods/p"))
            .header("Content-Type", "application/merge-patch+json")
            .method(
                "PATCH",
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
            .build();

    HttpResponse<String> response = http.send(request);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Http.json(response).path("metadata").path("annotations").path("a").asText())
        .isEqualTo("b");
  }

  @Test
  void jsonPatchAppliesRfc6902Operations() throws ApiException {
    V1Pod patched =
        PatchUtils.patch(
            V1Pod.class,
            () ->
                core.patchNamespacedPod(
                        "p",
                        "default",
                        new V1Patch(
                            "[{\"op\":\"add\",\"path\":\"/metadata/labels/x~1y\",\"value\":\"1\"},"
                                + "{\"op\":\"copy\",\"from\":\"/metadata/labels/x~1y\",\"path\":\"/metadata/labels/z\"},"
                                + "{\"op\":\"test\",\"path\":\"/metadata/labels/z\",\"value\":\"1\"},"
                                + "{\"op\":\"replace\",\"path\":\"/metadata/labels/z\",\"value\":\"2\"},"
                                + "{\"op\":\"move\",\"from\":\"/metadata/labels/z\",\"path\":\"/metadata/labels/w\"},"
                                + "{\"op\":\"remove\",\"path\":\"/metadata/labels/x~1y\"}]"))
                    .buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_PATCH,
            client);

    assertThat(patched.getMetadata().getLabels())
        .containsExactlyEntriesOf(java.util.Map.of("w", "2"));
  }

  @Test
  void failedJsonPatchTestOperationIs422() {
    HttpResponse<String> response =
        http.send(
            "PATCH",
            "/api/v1/namespaces/default/pods/p",
            "[{\"op\":\"test\",\"path\":\"/spec/schedulerName\",\"value\":\"other\"}]",
            "application/json-patch+json");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(Http.json(response).path("message").asText())
        .isEqualTo("testing value /spec/schedulerName failed");
  }

  @Test
  void strategicMergePatchMergesConditionsByTypeLikeKubeSchedulersStatusPatch()
      throws ApiException {
    ObjectNode pod = kube.store().get(ResourceKinds.PODS, "default", "p").orElseThrow();
    ((ObjectNode) pod.get("status"))
        .putArray("conditions")
        .add(Json.parseObject("{\"type\":\"Initialized\",\"status\":\"True\"}"));
    kube.store().updateStatus(ResourceKinds.PODS, "default", "p", pod);

    V1Pod patched =
        PatchUtils.patch(
            V1Pod.class,
            () ->
                core.patchNamespacedPodStatus(
                        "p",
                        "default",
                        new V1Patch(
                            "{\"status\":{\"$setElementOrder/conditions\":[{\"type\":\"Initialized\"},{\"type\":\"PodScheduled\"}],"
                                + "\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\"}]}}"))
                    .buildCall(null),
            V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH,
            client);

    assertThat(patched.getStatus().getConditions())
        .extracting(V1PodCondition::getType, V1PodCondition::getStatus)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Initialized", "True"),
            org.assertj.core.groups.Tuple.tuple("PodScheduled", "False"));
  }

  @Test
  void strategicMergePatchOnACustomResourceIsUnsupportedMediaType() {
    kube.store()
        .create(ResourceKinds.QUEUES, "", Json.parseObject("{\"metadata\":{\"name\":\"q\"}}"));

    HttpResponse<String> response =
        http.send(
            "PATCH",
            "/apis/scheduling.run.ai/v2/queues/q",
            "{\"spec\":{}}",
            "application/strategic-merge-patch+json");

    assertThat(response.statusCode()).isEqualTo(415);
    assertThat(Http.json(response).path("reason").asText()).isEqualTo("UnsupportedMediaType");
  }

  @Test
  void serverSideApplyIsNotSupportedAndSaysSo() {
    HttpResponse<String> response =
        http.send(
            "PATCH",
            "/api/v1/namespaces/default/pods/p?fieldManager=t",
            "{}",
            "application/apply-patch+yaml");

    assertThat(response.statusCode()).isEqualTo(415);
  }

  @Test
  void resourceVersionInAPatchIsAPrecondition() {
    HttpResponse<String> response =
        http.send(
            "PATCH",
            "/api/v1/namespaces/default/pods/p",
            "{\"metadata\":{\"resourceVersion\":\"99\",\"labels\":{\"a\":\"b\"}}}",
            "application/merge-patch+json");

    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(Http.json(response).path("reason").asText()).isEqualTo("Conflict");
  }

  @Test
  void patchOfMissingObjectIsNotFound() {
    assertThatThrownBy(
            () ->
                PatchUtils.patch(
                    V1Pod.class,
                    () ->
                        core.patchNamespacedPod("nope", "default", new V1Patch("{}"))
                            .buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                    client))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void mergePatchOnStatusSubresourceChangesOnlyStatus() {
    HttpResponse<String> response =
        http.send(
            "PATCH",
            "/api/v1/namespaces/default/pods/p/status",
            "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"status\":{\"phase\":\"Running\"}}",
            "application/merge-patch+json");

    ObjectNode pod = Http.json(response);
    assertThat(pod.path("status").path("phase").asText()).isEqualTo("Running");
    assertThat(pod.path("metadata").path("labels").has("a")).isFalse();
  }
}
