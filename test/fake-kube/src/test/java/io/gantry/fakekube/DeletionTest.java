package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.util.Watch;
import java.net.http.HttpResponse;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** DELETE: graceful pod deletion, finalizers, preconditions, collections. */
class DeletionTest {
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = Clients.apiClient(kube, 10);
  private final CoreV1Api core = new CoreV1Api(client);
  private final Http http = new Http(kube);

  @AfterEach
  void stop() {
    kube.close();
  }

  private void createBoundPod(String name) throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", name)).execute();
    kube.store().bind("default", name, Json.parseObject("{\"target\":{\"name\":\"n1\"}}"));
  }

  @Test
  void deletingABoundPodWithAGracePeriodMarksItTerminatingAsModified() throws Exception {
    createBoundPod("p");
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listNamespacedPod("default").watch(true).resourceVersion("2").buildCall(null),
            Clients.POD_EVENTS)) {

      V1Pod answered = core.deleteNamespacedPod("p", "default").gracePeriodSeconds(30).execute();

      assertThat(answered.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
      assertThat(answered.getMetadata().getDeletionTimestamp())
          .isCloseTo(
              OffsetDateTime.now(ZoneOffset.UTC).plusSeconds(30), within(5, ChronoUnit.SECONDS));
      Watch.Response<V1Pod> event = watch.next();
      assertThat(event.type).isEqualTo("MODIFIED");
      assertThat(event.object.getMetadata().getDeletionTimestamp()).isNotNull();
      assertThat(kube.store().get(ResourceKinds.PODS, "default", "p")).isPresent();
    }
  }

  @Test
  void podGracePeriodDefaultsToTerminationGracePeriodSeconds() throws ApiException {
    createBoundPod("p");

    V1Pod answered = core.deleteNamespacedPod("p", "default").execute();

    assertThat(answered.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
  }

  @Test
  void unboundPodIsDeletedAtOnceWhateverTheGracePeriod() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();

    core.deleteNamespacedPod("p", "default").gracePeriodSeconds(30).execute();

    assertThat(kube.store().get(ResourceKinds.PODS, "default", "p")).isEmpty();
  }

  @Test
  void gracePeriodZeroRemovesABoundPodAtOnceWithADeletedEvent() throws Exception {
    createBoundPod("p");
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listNamespacedPod("default").watch(true).resourceVersion("2").buildCall(null),
            Clients.POD_EVENTS)) {

      core.deleteNamespacedPod("p", "default").gracePeriodSeconds(0).execute();

      Watch.Response<V1Pod> event = watch.next();
      assertThat(event.type).isEqualTo("DELETED");
      assertThat(event.object.getMetadata().getResourceVersion()).isEqualTo("3");
    }
  }

  @Test
  void finalizersBlockRemovalUntilCleared() throws ApiException {
    core.createNamespacedConfigMap(
            "default",
            new V1ConfigMap()
                .metadata(new V1ObjectMeta().name("c").addFinalizersItem("example.com/hold")))
        .execute();

    core.deleteNamespacedConfigMap("c", "default").execute();
    V1ConfigMap held = core.readNamespacedConfigMap("c", "default").execute();
    assertThat(held.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(held.getMetadata().getDeletionGracePeriodSeconds()).isZero();

    HttpResponse<String> cleared =
        http.send(
            "PATCH",
            "/api/v1/namespaces/default/configmaps/c",
            "{\"metadata\":{\"finalizers\":null}}",
            "application/merge-patch+json");
    assertThat(cleared.statusCode()).isEqualTo(200);
    assertThat(kube.store().get(ResourceKinds.CONFIG_MAPS, "default", "c")).isEmpty();
  }

  @Test
  void uidPreconditionThatDoesNotMatchIsConflict() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();

    HttpResponse<String> response =
        http.send(
            "DELETE",
            "/api/v1/namespaces/default/pods/p",
            "{\"preconditions\":{\"uid\":\"other\"}}",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(Http.json(response).path("message").asText())
        .startsWith(
            "Operation cannot be fulfilled on pods \"p\": Precondition failed: UID in precondition:"
                + " other, UID in object meta: ");
  }

  @Test
  void deleteOptionsBodyFromClientJavaIsHonoured() throws ApiException {
    V1Pod pod = core.createNamespacedPod("default", Clients.pod("default", "p")).execute();

    core.deleteNamespacedPod("p", "default")
        .body(
            new V1DeleteOptions()
                .preconditions(new V1Preconditions().uid(pod.getMetadata().getUid())))
        .execute();

    assertThat(kube.store().get(ResourceKinds.PODS, "default", "p")).isEmpty();
  }

  @Test
  void deleteCollectionDeletesWhatTheSelectorPicks() {
    for (String name : new String[] {"a", "b", "c"}) {
      ObjectNode map = Json.parseObject("{\"metadata\":{\"name\":\"" + name + "\"}}");
      map.withObject("/metadata/labels").put("keep", name.equals("b") ? "yes" : "no");
      kube.store().create(ResourceKinds.CONFIG_MAPS, "default", map);
    }

    HttpResponse<String> response =
        http.send(
            "DELETE",
            "/api/v1/namespaces/default/configmaps?labelSelector=keep%3Dno",
            "",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Http.json(response).path("items")).hasSize(2);
    assertThat(kube.store().list(ResourceKinds.CONFIG_MAPS, "default"))
        .extracting(Json::name)
        .containsExactly("b");
  }
}
