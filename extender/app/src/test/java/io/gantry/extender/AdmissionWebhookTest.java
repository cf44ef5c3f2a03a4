package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.wire.BadRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AdmissionWebhookTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String review(String namespace, String annotations, String resources) {
    return """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"r-1",
         "namespace":"%s","operation":"CREATE","object":{"metadata":{"name":"p","annotations":%s},
         "spec":{"containers":[{"name":"main","resources":%s}]}}}}"""
        .formatted(namespace, annotations, resources);
  }

  private static JsonNode answer(AdmissionWebhook webhook, String review) throws Exception {
    JsonNode out = JSON.readTree(webhook.review(review.getBytes(StandardCharsets.UTF_8)));
    assertThat(out.get("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(out.get("kind").asText()).isEqualTo("AdmissionReview");
    assertThat(out.at("/response/uid").asText()).isEqualTo("r-1");
    return out.get("response");
  }

  static Stream<Arguments> badPods() {
    return Stream.of(
        Arguments.of(
            "fraction of 1.5",
            "{\"gpu-fraction\":\"1.5\"}",
            "{}",
            "gpu-fraction annotation value must be a positive number smaller than 1.0"),
        Arguments.of(
            "fraction with a whole GPU",
            "{\"gpu-fraction\":\"0.5\"}",
            "{\"limits\":{\"nvidia.com/gpu\":\"1\"}}",
            "cannot have both GPU fraction request and whole GPU resource request/limit"),
        Arguments.of(
            "memory of zero",
            "{\"gpu-memory\":\"0\"}",
            "{}",
            "gpu-memory annotation value must be a positive integer greater than 0"),
        Arguments.of(
            "device count alone",
            "{\"gpu-fraction-num-devices\":\"2\"}",
            "{}",
            "cannot request multiple fractional devices without specifying fraction portion or"
                + " gpu-memory"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badPods")
  void aPodBreakingKaisRulesIsDeniedWithKaisMessage(
      String name, String annotations, String resources, String message) throws Exception {
    JsonNode r = answer(AdmissionWebhook.defaults(), review("ml", annotations, resources));
    assertThat(r.get("allowed").asBoolean()).isFalse();
    assertThat(r.at("/status/message").asText()).isEqualTo(message);
    assertThat(r.has("patch")).isFalse();
  }

  @Test
  void aFractionPodGetsTheGpuShareResourceAsRequestAndLimit() throws Exception {
    JsonNode r =
        answer(
            AdmissionWebhook.defaults(),
            review("ml", "{\"gpu-fraction\":\"0.5\"}", "{\"requests\":{\"cpu\":\"1\"}}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
    assertThat(r.get("patchType").asText()).isEqualTo("JSONPatch");
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(r.get("patch").asText()));
    assertThat(patch.toString())
        .isEqualTo(
            "[{\"op\":\"add\",\"path\":\"/spec/containers/0/resources/requests/gantry.io~1gpu-share\",\"value\":\"1\"},"
                + "{\"op\":\"add\",\"path\":\"/spec/containers/0/resources/limits\",\"value\":{\"gantry.io/gpu-share\":\"1\"}}]");
  }

  @Test
  void aPodWithoutGpuSharingIsAdmittedUnchanged() throws Exception {
    JsonNode r = answer(AdmissionWebhook.defaults(), review("ml", "{}", "{}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
    assertThat(r.has("patch")).isFalse();
  }

  @Test
  void aSkippedNamespaceIsAdmittedUnchecked() throws Exception {
    JsonNode r =
        answer(
            AdmissionWebhook.defaults(), review("kube-system", "{\"gpu-fraction\":\"7\"}", "{}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void anUnreadablePodFollowsTheFailurePolicy() throws Exception {
    String noPod = "{\"request\":{\"uid\":\"r-1\",\"namespace\":\"ml\",\"object\":{\"spec\":{}}}}";
    JsonNode fail = answer(AdmissionWebhook.defaults(), noPod);
    assertThat(fail.get("allowed").asBoolean()).isFalse();
    assertThat(fail.at("/status/message").asText())
        .isEqualTo("request.object: expected a Pod with spec.containers");
    JsonNode ignore =
        answer(
            new AdmissionWebhook(AdmissionWebhook.FailurePolicy.Ignore, ImmutableSet.of()), noPod);
    assertThat(ignore.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aBodyThatIsNoAdmissionReviewIsABadRequestNamingTheField() {
    assertThatThrownBy(
            () ->
                AdmissionWebhook.defaults()
                    .review("{\"request\":{}}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequest.class)
        .hasMessage("request.uid: expected a string");
  }
}
