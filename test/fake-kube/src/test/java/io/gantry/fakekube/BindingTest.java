package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import java.io.IOException;
import java.net.http.HttpResponse;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** pods/binding and pods/eviction, as the API server's BindingREST and EvictionREST answer. */
class BindingTest {
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

  private static V1Binding binding(String pod, String node) {
    return new V1Binding()
        .apiVersion("v1")
        .kind("Binding")
        .metadata(new V1ObjectMeta().name(pod).namespace("default"))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
  }

  @Test
  void bindingAnswers201StatusSetsNodeNameAndPodScheduledTrue() throws Exception {
    // protocols.md §7.1: the strict V1Binding model cannot read the Status answer, so a binder
    // runs the call itself and checks the HTTP code.
    try (Response response =
        core.createNamespacedPodBinding("p", "default", binding("p", "n1"))
            .buildCall(null)
            .execute()) {
      assertThat(response.code()).isEqualTo(201);
      ObjectNode status = Json.parseObject(response.body().string());
      assertThat(status.path("kind").asText()).isEqualTo("Status");
      assertThat(status.path("status").asText()).isEqualTo("Success");
      assertThat(status.path("code").asInt()).isEqualTo(201);
    }

    V1Pod pod = core.readNamespacedPod("p", "default").execute();
    assertThat(pod.getSpec().getNodeName()).isEqualTo("n1");
    V1PodCondition scheduled = pod.getStatus().getConditions().get(0);
    assertThat(scheduled.getType()).isEqualTo("PodScheduled");
    assertThat(scheduled.getStatus()).isEqualTo("True");
    assertThat(scheduled.getLastTransitionTime()).isNotNull();
  }

  @Test
  void strictClientJava27ThrowsOnTheStatusAnswerAlthoughTheBindSucceeded() throws ApiException {
    assertThatThrownBy(
            () -> core.createNamespacedPodBinding("p", "default", binding("p", "n1")).execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not defined in the `V1Binding` properties");

    assertThat(core.readNamespacedPod("p", "default").execute().getSpec().getNodeName())
        .isEqualTo("n1");
  }

  @Test
  @SuppressWarnings("try") // the resource is only closed: that undoes the install
  void relaxedJsonLetsTheGeneratedBindingCallSucceed() throws ApiException {
    try (RelaxedJson relaxed = RelaxedJson.install()) {
      core.createNamespacedPodBinding("p", "default", binding("p", "n1")).execute();
    }

    assertThat(core.readNamespacedPod("p", "default").execute().getSpec().getNodeName())
        .isEqualTo("n1");
  }

  @Test
  void bindingAnAlreadyBoundPodIsConflict() throws IOException, ApiException {
    core.createNamespacedPodBinding("p", "default", binding("p", "n1"))
        .buildCall(null)
        .execute()
        .close();

    try (Response response =
        core.createNamespacedPodBinding("p", "default", binding("p", "n2"))
            .buildCall(null)
            .execute()) {
      assertThat(response.code()).isEqualTo(409);
      ObjectNode status = Json.parseObject(response.body().string());
      assertThat(status.path("reason").asText()).isEqualTo("Conflict");
      assertThat(status.path("message").asText())
          .isEqualTo(
              "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to"
                  + " node \"n1\"");
    }
  }

  @Test
  void bindingCopiesItsAnnotationsOntoThePodAndTheLegacyBindingsCollectionWorks() {
    HttpResponse<String> response =
        http.send(
            "POST",
            "/api/v1/namespaces/default/bindings",
            "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\","
                + "\"annotations\":{\"gantry.io/gpu-group\":\"g1\"}},\"target\":{\"kind\":\"Node\",\"name\":\"n3\"}}",
            "application/json");

    assertThat(response.statusCode()).isEqualTo(201);
    ObjectNode pod = kube.store().get(ResourceKinds.PODS, "default", "p").orElseThrow();
    assertThat(pod.path("spec").path("nodeName").asText()).isEqualTo("n3");
    assertThat(pod.path("metadata").path("annotations").path("gantry.io/gpu-group").asText())
        .isEqualTo("g1");
  }

  @Test
  void bindingWithoutTargetIsInvalidAndOfMissingPodIsNotFound() {
    HttpResponse<String> invalid =
        http.send(
            "POST",
            "/api/v1/namespaces/default/pods/p/binding",
            "{\"metadata\":{\"name\":\"p\"},\"target\":{}}",
            "application/json");
    HttpResponse<String> missing =
        http.send(
            "POST",
            "/api/v1/namespaces/default/pods/q/binding",
            "{\"metadata\":{\"name\":\"q\"},\"target\":{\"name\":\"n1\"}}",
            "application/json");

    assertThat(invalid.statusCode()).isEqualTo(422);
    assertThat(Http.json(invalid).path("message").asText())
        .isEqualTo("Binding \"p\" is invalid: target.name: Required value");
    assertThat(missing.statusCode()).isEqualTo(404);
  }

  @Test
  void evictionDeletesThePodWithItsDeleteOptions() throws Exception {
    V1Eviction eviction =
        new V1Eviction()
            .apiVersion("policy/v1")
            .kind("Eviction")
            .metadata(new V1ObjectMeta().name("p").namespace("default"))
            .deleteOptions(new V1DeleteOptions().gracePeriodSeconds(0L));

    try (Response response =
        core.createNamespacedPodEviction("p", "default", eviction).buildCall(null).execute()) {
      assertThat(response.code()).isEqualTo(201);
    }

    assertThat(kube.store().get(ResourceKinds.PODS, "default", "p")).isEmpty();
  }
}
