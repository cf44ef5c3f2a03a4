package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Create, read and list over HTTP with client-java 27, checked against the real server's answers.
 */
class CrudTest {
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = Clients.apiClient(kube);
  private final CoreV1Api core = new CoreV1Api(client);
  private final Http http = new Http(kube);

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  void createAssignsUidResourceVersionCreationTimestampAndPodDefaults() throws ApiException {
    V1Pod created = core.createNamespacedPod("default", Clients.pod("default", "p1")).execute();

    V1ObjectMeta meta = created.getMetadata();
    assertThat(meta.getUid())
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(meta.getResourceVersion()).isEqualTo("1");
    assertThat(meta.getCreationTimestamp()).isNotNull();
    assertThat(meta.getGeneration()).isEqualTo(1L);
    // pod strategy PrepareForCreate + defaulting + Priority admission
    assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(created.getSpec().getSchedulerName()).isEqualTo("default-scheduler");
    assertThat(created.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(30L);
    assertThat(created.getSpec().getPriority()).isZero();
    assertThat(core.readNamespacedPod("p1", "default").execute()).isEqualTo(created);
  }

  @Test
  void generateNameAppendsFiveCharactersFromTheApiServersAlphabet() throws ApiException {
    V1Pod pod = Clients.pod("default", null);
    pod.getMetadata().generateName("worker-");

    String name = core.createNamespacedPod("default", pod).execute().getMetadata().getName();

    assertThat(name).matches("worker-[bcdfghjklmnpqrstvwxz2456789]{5}");
  }

  @Test
  void resourceVersionIsOneGlobalCounterAcrossKindsAsInEtcd() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p1")).execute();
    V1ConfigMap map =
        core.createNamespacedConfigMap(
                "default", new V1ConfigMap().metadata(new V1ObjectMeta().name("c1")))
            .execute();
    V1Pod second = core.createNamespacedPod("default", Clients.pod("default", "p2")).execute();

    assertThat(map.getMetadata().getResourceVersion()).isEqualTo("2");
    assertThat(second.getMetadata().getResourceVersion()).isEqualTo("3");
    assertThat(kube.store().resourceVersion()).isEqualTo(3);
  }

  @Test
  void getOfMissingObjectIsNotFoundStatusShapedAsTheApiServers() {
    HttpResponse<String> response = http.get("/api/v1/namespaces/default/pods/nope");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body())
        .isEqualTo(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"pods \\\"nope\\\" not found\",\"reason\":\"NotFound\","
                + "\"details\":{\"name\":\"nope\",\"kind\":\"pods\"},\"code\":404}");
  }

  @Test
  void notFoundOfAGroupResourceNamesTheGroup() {
    HttpResponse<String> response = http.get("/apis/scheduling.run.ai/v2/queues/nope");

    ObjectNode status = Http.json(response);
    assertThat(status.path("message").asText())
        .isEqualTo("queues.scheduling.run.ai \"nope\" not found");
    assertThat(status.path("details").path("group").asText()).isEqualTo("scheduling.run.ai");
  }

  @Test
  void createOfExistingNameIsAlreadyExists409() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p1")).execute();

    assertThatThrownBy(
            () -> core.createNamespacedPod("default", Clients.pod("default", "p1")).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(409);
              ObjectNode status = Json.parseObject(e.getResponseBody());
              assertThat(status.path("reason").asText()).isEqualTo("AlreadyExists");
              assertThat(status.path("message").asText()).isEqualTo("pods \"p1\" already exists");
              assertThat(status.path("details").path("kind").asText()).isEqualTo("pods");
            });
  }

  @Test
  void createWithoutNameIsInvalid422WithCauses() {
    HttpResponse<String> response =
        http.send(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{}}",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(422);
    ObjectNode status = Http.json(response);
    assertThat(status.path("reason").asText()).isEqualTo("Invalid");
    assertThat(status.path("message").asText())
        .isEqualTo(
            "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is"
                + " required");
    assertThat(status.path("details").path("causes").get(0).path("field").asText())
        .isEqualTo("metadata.name");
  }

  @Test
  void podWithoutContainersIsInvalid() {
    HttpResponse<String> response =
        http.send(
            "POST",
            "/api/v1/namespaces/default/pods",
            "{\"metadata\":{\"name\":\"bare\"},\"spec\":{}}",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(Http.json(response).path("message").asText())
        .isEqualTo("Pod \"bare\" is invalid: spec.containers: Required value");
  }

  @Test
  void namespaceInBodyThatDiffersFromThePathIsBadRequest() {
    HttpResponse<String> response =
        http.send(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "{\"metadata\":{\"name\":\"c\",\"namespace\":\"other\"}}",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(Http.json(response).path("message").asText())
        .isEqualTo(
            "the namespace of the provided object does not match the namespace sent on the"
                + " request");
  }

  @Test
  void malformedBodyIsBadRequestNamingTheProblemAndTheServerKeepsServing() throws ApiException {
    HttpResponse<String> response =
        http.send(
            "POST", "/api/v1/namespaces/default/pods", "{\"metadata\": {", "application/json");

    assertThat(response.statusCode()).isEqualTo(400);
    ObjectNode status = Http.json(response);
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("reason").asText()).isEqualTo("BadRequest");
    assertThat(status.path("message").asText())
        .startsWith("json parse error: Unexpected end-of-input");
    assertThat(core.createNamespacedPod("default", Clients.pod("default", "after")).execute())
        .isNotNull();
  }

  @Test
  void listCarriesTheResourceVersionAndPagesWithLimitAndContinue() throws ApiException {
    for (String name : List.of("a", "b", "c", "d", "e")) {
      core.createNamespacedPod("default", Clients.pod("default", name)).execute();
    }
    core.createNamespacedPod("other", Clients.pod("other", "z")).execute();

    List<String> names = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      V1PodList page = core.listNamespacedPod("default").limit(2)._continue(token).execute();
      assertThat(page.getMetadata().getResourceVersion()).isEqualTo("6");
      page.getItems().forEach(p -> names.add(p.getMetadata().getName()));
      token = page.getMetadata().getContinue();
      pages++;
    } while (token != null);

    assertThat(names).containsExactly("a", "b", "c", "d", "e");
    assertThat(pages).isEqualTo(3);
    assertThat(core.listPodForAllNamespaces().execute().getItems()).hasSize(6);
  }

  @Test
  void clusterScopedKindsLiveOutsideNamespacesAndTheWrongScopeIs404() throws ApiException {
    V1Node node =
        core.createNode(new V1Node().metadata(new V1ObjectMeta().name("n1").namespace("ignored")))
            .execute();

    assertThat(node.getMetadata().getNamespace()).isNull();
    assertThat(core.readNode("n1").execute().getMetadata().getName()).isEqualTo("n1");
    assertThat(http.get("/api/v1/namespaces/default/nodes/n1").statusCode()).isEqualTo(404);
    assertThat(http.get("/api/v1/pods/p1").statusCode()).isEqualTo(404);
  }

  @Test
  void requestsAreCountedByVerbAndPath() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p1")).execute();
    core.readNamespacedPod("p1", "default").execute();
    core.listNamespacedPod("default").execute();
    core.listNamespacedPod("default").execute();

    RequestCounts requests = kube.requests();
    assertThat(requests.count("create", "/api/v1/namespaces/default/pods")).isEqualTo(1);
    assertThat(requests.count("get", "/api/v1/namespaces/default/pods/p1")).isEqualTo(1);
    assertThat(requests.count("list", "/api/v1/namespaces/default/pods")).isEqualTo(2);
    assertThat(requests.total("list")).isEqualTo(2);
    requests.reset();
    assertThat(requests.snapshot()).isEmpty();
  }

  @Test
  void storeAccessSeesWhatClientsWroteAndClientsSeeWhatTheStoreWrote() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p1")).execute();
    ObjectNode map =
        Json.parseObject(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c1\",\"namespace\":\"ns\"},\"data\":{\"k\":\"v\"}}");

    kube.store().create(map);

    assertThat(kube.store().get(ResourceKinds.PODS, "default", "p1")).isPresent();
    assertThat(kube.store().list(ResourceKinds.PODS, "")).hasSize(1);
    assertThat(core.readNamespacedConfigMap("c1", "ns").execute().getData())
        .containsEntry("k", "v");
  }
}
