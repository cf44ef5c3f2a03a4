package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** PUT, optimistic concurrency and status subresources, as the API server does them. */
class UpdateTest {
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = Clients.apiClient(kube);
  private final CoreV1Api core = new CoreV1Api(client);
  private final Http http = new Http(kube);

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  void putWithStaleResourceVersionIsConflictWithTheApiServersMessage() throws ApiException {
    V1Pod created = core.createNamespacedPod("default", Clients.pod("default", "x")).execute();
    V1Pod fresh = core.readNamespacedPod("x", "default").execute();
    fresh.getMetadata().putLabelsItem("a", "1");
    core.replaceNamespacedPod("x", "default", fresh).execute();

    created.getMetadata().putLabelsItem("a", "2");
    assertThatThrownBy(() -> core.replaceNamespacedPod("x", "default", created).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(409);
              ObjectNode status = Json.parseObject(e.getResponseBody());
              assertThat(status.path("reason").asText()).isEqualTo("Conflict");
              assertThat(status.path("message").asText())
                  .isEqualTo(
                      "Operation cannot be fulfilled on pods \"x\": the object has been modified;"
                          + " please apply your changes to the latest version and try again");
            });
  }

  @Test
  void putOfMissingObjectIsNotFound() {
    assertThatThrownBy(
            () ->
                core.replaceNamespacedPod("gone", "default", Clients.pod("default", "gone"))
                    .execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void updateThatChangesNothingKeepsTheResourceVersionAndSendsNoEvent() throws ApiException {
    V1Pod created = core.createNamespacedPod("default", Clients.pod("default", "x")).execute();

    V1Pod same = core.replaceNamespacedPod("x", "default", created).execute();

    assertThat(same.getMetadata().getResourceVersion())
        .isEqualTo(created.getMetadata().getResourceVersion());
    assertThat(kube.store().resourceVersion()).isEqualTo(1);
  }

  @Test
  void mainResourcePutIgnoresStatusAndStatusPutIgnoresEverythingElse() throws ApiException {
    V1Pod pod = core.createNamespacedPod("default", Clients.pod("default", "x")).execute();
    pod.getMetadata().putLabelsItem("team", "a");
    pod.setStatus(new V1PodStatus().phase("Running"));

    V1Pod updated = core.replaceNamespacedPod("x", "default", pod).execute();
    assertThat(updated.getMetadata().getLabels()).containsEntry("team", "a");
    assertThat(updated.getStatus().getPhase()).isEqualTo("Pending");

    updated.getMetadata().putLabelsItem("team", "b");
    updated
        .getStatus()
        .phase("Running")
        .addConditionsItem(new V1PodCondition().type("Ready").status("True"));
    V1Pod statusUpdated = core.replaceNamespacedPodStatus("x", "default", updated).execute();
    assertThat(statusUpdated.getStatus().getPhase()).isEqualTo("Running");
    assertThat(statusUpdated.getMetadata().getLabels()).containsEntry("team", "a");
  }

  @Test
  void podSpecIsImmutableExceptImagesSoNodeNameCannotBeSetByUpdate() throws ApiException {
    V1Pod pod = core.createNamespacedPod("default", Clients.pod("default", "x")).execute();
    pod.getSpec().setNodeName("n1");

    assertThatThrownBy(() -> core.replaceNamespacedPod("x", "default", pod).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              assertThat(Json.parseObject(e.getResponseBody()).path("message").asText())
                  .startsWith("Pod \"x\" is invalid: spec: Forbidden: pod updates may not change");
            });
    pod.getSpec().setNodeName(null);
    pod.getSpec().getContainers().get(0).setImage("busybox:2");
    assertThat(
            core.replaceNamespacedPod("x", "default", pod)
                .execute()
                .getSpec()
                .getContainers()
                .get(0)
                .getImage())
        .isEqualTo("busybox:2");
  }

  @Test
  void customResourcesTreatStatusAsSubresourceAndBumpGenerationOnSpecChanges() throws ApiException {
    DynamicKubernetesApi queues =
        new DynamicKubernetesApi("scheduling.run.ai", "v2", "queues", client);
    DynamicKubernetesObject queue =
        Dynamics.newFromJson(
            "{\"apiVersion\":\"scheduling.run.ai/v2\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"team-a\"},"
                + "\"spec\":{\"priority\":1},\"status\":{\"allocated\":{\"gpu\":\"3\"}}}");

    DynamicKubernetesObject created = queues.create(queue).throwsApiException().getObject();
    assertThat(created.getRaw().has("status")).isFalse();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

    created.getRaw().getAsJsonObject("spec").addProperty("priority", 2);
    created
        .getRaw()
        .add("status", Dynamics.newFromJson("{\"status\":{\"x\":1}}").getRaw().get("status"));
    DynamicKubernetesObject updated = queues.update(created).throwsApiException().getObject();
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(updated.getRaw().has("status")).isFalse();

    // client-java's updateStatus sends a JSON patch "replace /status"; on an object without
    // status that operation does not apply (RFC 6902), so the server answers 422.
    updated
        .getRaw()
        .add("status", Dynamics.newFromJson("{\"status\":{\"x\":1}}").getRaw().get("status"));
    assertThat(queues.updateStatus(updated, o -> o.getRaw().get("status")).getHttpStatusCode())
        .isEqualTo(422);

    ObjectNode stored = kube.store().get(ResourceKinds.QUEUES, "", "team-a").orElseThrow();
    stored.putObject("status").put("x", 0);
    kube.store().updateStatus(ResourceKinds.QUEUES, "", "team-a", stored);
    DynamicKubernetesObject withStatus =
        queues
            .updateStatus(updated, o -> o.getRaw().get("status"))
            .throwsApiException()
            .getObject();
    assertThat(withStatus.getRaw().getAsJsonObject("status").get("x").getAsInt()).isEqualTo(1);
    assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void customResourcePutWithoutResourceVersionIsInvalid() throws ApiException {
    kube.store()
        .create(
            ResourceKinds.QUEUES,
            "",
            Json.parseObject("{\"metadata\":{\"name\":\"q\"},\"spec\":{}}"));

    HttpResponse<String> response =
        http.send(
            "PUT",
            "/apis/scheduling.run.ai/v2/queues/q",
            "{\"apiVersion\":\"scheduling.run.ai/v2\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"q\"},\"spec\":{}}",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(Http.json(response).path("message").asText())
        .isEqualTo(
            "Queue \"q\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be"
                + " specified for an update");
  }

  @Test
  void unknownCustomResourceIsLearnedFromItsPathAndFirstObject() {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/apis/example.com/v1/namespaces/ns/widgets",
            "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"}}",
            "application/json");
    HttpResponse<String> list = http.get("/apis/example.com/v1/widgets");

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(Http.json(created).path("metadata").path("namespace").asText()).isEqualTo("ns");
    assertThat(Http.json(list).path("kind").asText()).isEqualTo("WidgetList");
    assertThat(Http.json(list).path("items")).hasSize(1);
  }
}
