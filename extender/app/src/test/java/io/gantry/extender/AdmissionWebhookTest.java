package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.wire.BadRequest;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.scheduler.model.QueueHierarchy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AdmissionWebhookTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Queues {@code root} (parent of {@code team-a}), {@code team-a}, {@code orphan} (whose parent
   * {@code gone} does not exist) and {@code a} and {@code b}, each the other's parent.
   */
  private static final QueueHierarchy QUEUES =
      new QueueHierarchy(
          ImmutableMap.of(
              "root", Optional.empty(),
              "team-a", Optional.of("root"),
              "orphan", Optional.of("gone"),
              "a", Optional.of("b"),
              "b", Optional.of("a")));

  private static final QueueLabelCheck QUEUE_LABELS = QueueLabelCheck.kaiDefaults(() -> QUEUES);

  private static AdmissionWebhook webhook() {
    // Gantry's device plugin, the default before reservation pods, which these cases were written
    // for
    return new AdmissionWebhook(
        AdmissionWebhook.FailurePolicy.Fail,
        ImmutableSet.of("kube-system"),
        QUEUE_LABELS,
        GpuSharingMode.DEVICE_PLUGIN);
  }

  /** The webhook in reservation-pods mode, the default. */
  private static AdmissionWebhook reservationWebhook() {
    return new AdmissionWebhook(
        AdmissionWebhook.FailurePolicy.Fail,
        ImmutableSet.of("kube-system"),
        QUEUE_LABELS,
        GpuSharingMode.RESERVATION_PODS);
  }

  private static String labelled(String queue) {
    return """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"r-1",
         "namespace":"ml","operation":"CREATE","object":{"metadata":{"name":"p",
         "labels":{"kai.scheduler/queue":"%s"}},"spec":{"containers":[{"name":"main"}]}}}}"""
        .formatted(queue);
  }

  static Stream<Arguments> queueLabels() {
    return Stream.of(
        Arguments.of(
            "missing", "Queue 'missing' does not exist: the pod stays pending until it is created"),
        Arguments.of(
            "root",
            "Queue 'root' is not a leaf queue (it is the parent of 'team-a'); jobs go to leaf"
                + " queues: the pod stays pending"),
        Arguments.of(
            "orphan",
            "Parent queue 'gone' of queue 'orphan' does not exist: the pod stays pending"),
        Arguments.of("a", "Queue 'a' is in a cycle: a -> b -> a: the pod stays pending"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("queueLabels")
  void aQueueLabelNamingAQueueThatHoldsNoJobsIsAdmittedWithAWarning(String queue, String warning)
      throws Exception {
    JsonNode r = answer(webhook(), labelled(queue));
    assertThat(r.get("allowed").asBoolean()).isTrue();
    assertThat(r.get("warnings")).hasSize(1);
    assertThat(r.get("warnings").get(0).asText()).isEqualTo(warning);
  }

  @Test
  void aQueueLabelNamingALeafQueueGetsNoWarning() throws Exception {
    JsonNode r = answer(webhook(), labelled("team-a"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
    assertThat(r.has("warnings")).isFalse();
  }

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
    JsonNode r = answer(webhook(), review("ml", annotations, resources));
    assertThat(r.get("allowed").asBoolean()).isFalse();
    assertThat(r.at("/status/message").asText()).isEqualTo(message);
    assertThat(r.has("patch")).isFalse();
  }

  @Test
  void aFractionPodGetsTheGpuShareResourceAsRequestAndLimit() throws Exception {
    JsonNode r =
        answer(
            webhook(),
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
  void withReservationPodsAFractionPodReadsItsEnvironmentFromTheConfigMapTheBinderWrites()
      throws Exception {
    AdmissionWebhook reservation = reservationWebhook();
    JsonNode r =
        answer(
            reservation,
            review("ml", "{\"gpu-fraction\":\"0.5\"}", "{\"requests\":{\"cpu\":\"1\"}}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(r.get("patch").asText()));
    // p: the pod's name; 7 hex of sha256("r-1"), the review's uid
    assertThat(patch.toString())
        .isEqualTo(
            "[{\"op\":\"add\",\"path\":\"/metadata/annotations/runai~1shared-gpu-configmap\",\"value\":\"p-a5fa777-shared-gpu\"},"
                + "{\"op\":\"add\",\"path\":\"/spec/containers/0/envFrom\",\"value\":[{\"configMapRef\":{\"name\":\"p-a5fa777-shared-gpu-0\"}}]}]");
  }

  @Test
  void withReservationPodsAnMpsPodAlsoGetsThePipeDirectory() throws Exception {
    AdmissionWebhook reservation = reservationWebhook();
    JsonNode r =
        answer(reservation, review("ml", "{\"gpu-fraction\":\"0.25\",\"mps\":\"true\"}", "{}"));
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(r.get("patch").asText()));
    List<String> paths = new ArrayList<>();
    patch.forEach(op -> paths.add(op.get("path").asText()));
    assertThat(paths)
        .containsExactly(
            "/metadata/annotations/runai~1shared-gpu-configmap",
            "/spec/containers/0/envFrom",
            "/spec/volumes",
            "/spec/containers/0/volumeMounts");
    assertThat(patch.get(2).get("value").toString())
        .isEqualTo(
            "[{\"name\":\"gantry-mps-pipe\",\"hostPath\":{\"path\":\"/tmp/nvidia-mps\",\"type\":\"DirectoryOrCreate\"}}]");
    // the GPU's own pipe directory, /tmp/nvidia-mps/<uuid> on the host: the kubelet expands the
    // UUID from the environment ConfigMap the binder writes
    assertThat(patch.get(3).get("value").toString())
        .isEqualTo(
            "[{\"name\":\"gantry-mps-pipe\",\"mountPath\":\"/tmp/nvidia-mps\",\"subPathExpr\":\"$(NVIDIA_VISIBLE_DEVICES)\"}]");
  }

  /**
   * An MPS pod over two GPUs would get NVIDIA_VISIBLE_DEVICES=uuidA,uuidB and so a pipe directory
   * no daemon serves: it is refused, naming the annotations and why.
   */
  @Test
  void withReservationPodsAnMpsPodOverSeveralGpusIsDenied() throws Exception {
    JsonNode r =
        answer(
            reservationWebhook(),
            review(
                "ml",
                "{\"gpu-fraction\":\"0.5\",\"gpu-fraction-num-devices\":\"2\",\"mps\":\"true\"}",
                "{}"));

    assertThat(r.get("allowed").asBoolean()).isFalse();
    assertThat(r.has("patch")).isFalse();
    assertThat(r.at("/status/code").asInt()).isEqualTo(400);
    assertThat(r.at("/status/message").asText())
        .isEqualTo(
            "mps: \"true\" with gpu-fraction-num-devices: \"2\" cannot be served with reservation"
                + " pods: each GPU has its own MPS control daemon with its pipes in"
                + " /tmp/nvidia-mps/<gpu-uuid>, and a container reaches one daemon through its one"
                + " pipe directory (CUDA_MPS_PIPE_DIRECTORY); ask for one device (drop"
                + " gpu-fraction-num-devices or set it to \"1\") or drop mps");
  }

  @Test
  void withReservationPodsAnMpsPodOnOneDeviceOrATimeSlicedPodOverSeveralIsAdmitted()
      throws Exception {
    AdmissionWebhook reservation = reservationWebhook();
    assertThat(
            answer(
                    reservation,
                    review(
                        "ml",
                        "{\"gpu-fraction\":\"0.5\",\"gpu-fraction-num-devices\":\"1\",\"mps\":\"true\"}",
                        "{}"))
                .get("allowed")
                .asBoolean())
        .isTrue();
    assertThat(
            answer(
                    reservation,
                    review(
                        "ml",
                        "{\"gpu-fraction\":\"0.5\",\"gpu-fraction-num-devices\":\"2\"}",
                        "{}"))
                .get("allowed")
                .asBoolean())
        .isTrue();
  }

  /** Gantry's device plugin mounts the pipe directory itself; the webhook leaves it the pod. */
  @Test
  void withTheDevicePluginAnMpsPodOverSeveralGpusIsNotDeniedByTheWebhook() throws Exception {
    JsonNode r =
        answer(
            webhook(),
            review(
                "ml",
                "{\"gpu-fraction\":\"0.5\",\"gpu-fraction-num-devices\":\"2\",\"mps\":\"true\"}",
                "{}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
  }

  /**
   * KAI's MPS example (its gpu-sharing-with-mps manifest, with KAI's {@code mps} flag): the pod
   * mounts the host's pipe root itself.
   */
  @Test
  void withReservationPodsKaisMpsManifestGetsItsPipeMountReplacedByTheGpusOwn() throws Exception {
    AdmissionWebhook reservation = reservationWebhook();
    String review =
        """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"r-1",
         "namespace":"ml","operation":"CREATE","object":{"metadata":{"name":"gpu-sharing-with-mps",
         "labels":{"kai.scheduler/queue":"default-queue"},"annotations":{"gpu-fraction":"0.5","mps":"true"}},
         "spec":{"schedulerName":"kai-scheduler","containers":[{"name":"gpu-workload",
         "image":"nvidia/cuda:13.0.2-base-ubi8","command":["nvidia-smi"],"args":["-L"],
         "volumeMounts":[{"name":"mps","mountPath":"/tmp/nvidia-mps"}]}],
         "volumes":[{"name":"mps","hostPath":{"path":"/tmp/nvidia-mps","type":"DirectoryOrCreate"}}]}}}}""";

    JsonNode r = answer(reservation, review);

    assertThat(r.get("allowed").asBoolean()).isTrue();
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(r.get("patch").asText()));
    assertThat(patch.get(2).toString())
        .isEqualTo(
            "{\"op\":\"add\",\"path\":\"/spec/volumes/-\",\"value\":{\"name\":\"gantry-mps-pipe\",\"hostPath\":{\"path\":\"/tmp/nvidia-mps\",\"type\":\"DirectoryOrCreate\"}}}");
    assertThat(patch.get(3).toString())
        .isEqualTo(
            "{\"op\":\"replace\",\"path\":\"/spec/containers/0/volumeMounts/0\",\"value\":{\"name\":\"gantry-mps-pipe\",\"mountPath\":\"/tmp/nvidia-mps\",\"subPathExpr\":\"$(NVIDIA_VISIBLE_DEVICES)\"}}");
    assertThat(patch).hasSize(4);
  }

  @Test
  void aPodWithoutGpuSharingIsAdmittedUnchanged() throws Exception {
    JsonNode r = answer(webhook(), review("ml", "{}", "{}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
    assertThat(r.has("patch")).isFalse();
  }

  @Test
  void aSkippedNamespaceIsAdmittedUnchecked() throws Exception {
    JsonNode r = answer(webhook(), review("kube-system", "{\"gpu-fraction\":\"7\"}", "{}"));
    assertThat(r.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void anUnreadablePodFollowsTheFailurePolicy() throws Exception {
    String noPod = "{\"request\":{\"uid\":\"r-1\",\"namespace\":\"ml\",\"object\":{\"spec\":{}}}}";
    JsonNode fail = answer(webhook(), noPod);
    assertThat(fail.get("allowed").asBoolean()).isFalse();
    assertThat(fail.at("/status/message").asText())
        .isEqualTo("request.object: expected a Pod with spec.containers");
    JsonNode ignore =
        answer(
            new AdmissionWebhook(
                AdmissionWebhook.FailurePolicy.Ignore,
                ImmutableSet.of(),
                QUEUE_LABELS,
                GpuSharingMode.DEVICE_PLUGIN),
            noPod);
    assertThat(ignore.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aBodyThatIsNoAdmissionReviewIsABadRequestNamingTheField() {
    assertThatThrownBy(() -> webhook().review("{\"request\":{}}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequest.class)
        .hasMessage("request.uid: expected a string");
  }
}
