package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.extender.ExtenderSettings;
import io.gantry.extender.ExtenderWiring;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 7: {@code gantry extender --scenario} asked about a pod that is not in the file
 * groups it from the request as KAI's podgrouper would, and filters it like any grouped pod.
 */
class ExtenderUngroupedPodTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Two nodes of 4 GPUs; node-0 has 3 of them taken by a running pod of the file. */
  static final String SCENARIO =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: unseen}
      nodes:
        - {name: node, count: 2, gpus: 4, gpuMemory: 81920, cpu: "64", memory: 512Gi}
      queues:
        - name: team-a
          resources:
            gpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            memory: {quota: -1, overQuotaWeight: 1, limit: -1}
      jobs:
        - name: running
          queue: team-a
          tasks:
            - {name: w, replicas: 1, status: Running, node: node-0,
               resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 3}}
      """;

  @TempDir Path dir;
  private ExtenderWiring extender;

  @BeforeEach
  void start() throws Exception {
    Path file = dir.resolve("unseen.yaml");
    Files.writeString(file, SCENARIO);
    extender =
        ExtenderWiring.start(withPort0(), ExtenderClusterSources.scenario(file), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    extender.close();
  }

  private static ExtenderSettings withPort0() {
    ExtenderSettings d = ExtenderSettings.DEFAULTS;
    return new ExtenderSettings(
        d.reservationTtl(),
        d.httpTimeout(),
        d.fairShareWaiting(),
        d.maxRequestBytes(),
        d.requestTimeout(),
        d.networkThreads(),
        0,
        d.tls(),
        d.webhookFailurePolicy(),
        d.webhookSkippedNamespaces());
  }

  /** A filter request for pod {@code name}: {@code metadata} and {@code spec} as given. */
  static String filter(String name, String metadataExtra, int gpus) {
    return """
        {"Pod":{"metadata":{"name":"%s","namespace":"default","uid":"uid-%s"%s},
          "spec":{"schedulerName":"default-scheduler","priority":0,"containers":[{"name":"c",
          "image":"busybox","resources":{"limits":{"nvidia.com/gpu":"%d"}}}]},
          "status":{"phase":"Pending"}},
         "NodeNames":["node-0","node-1"]}"""
        .formatted(name, name, metadataExtra, gpus);
  }

  static final String QUEUE_LABEL = ",\"labels\":{\"kai.scheduler/queue\":\"team-a\"}";

  @Test
  void aBarePodWithAQueueLabelIsItsOwnPodGroupAndGetsTheNodeWithRoom() throws Exception {
    JsonNode r = post("filter", filter("solo", QUEUE_LABEL, 2));

    // node-0 has 1 GPU free, node-1 has 4: the pod's PodGroup of one is planned on node-1
    assertThat(r.get("NodeNames")).hasSize(1);
    assertThat(r.get("NodeNames").get(0).asText()).isEqualTo("node-1");
    assertThat(r.get("FailedNodes").size()).isZero();
    assertThat(r.get("FailedAndUnresolvableNodes").size()).isZero();
    JsonNode scores = post("prioritize", filter("solo", QUEUE_LABEL, 2));
    assertThat(scores.get(0).get("Host").asText()).isEqualTo("node-1");
    assertThat(
            post(
                    "bind",
                    "{\"PodName\":\"solo\",\"PodNamespace\":\"default\",\"PodUID\":\"uid-solo\","
                        + "\"Node\":\"node-1\"}")
                .get("Error")
                .asText())
        .isEmpty();

    // the bound pod holds its GPUs: a second one of 3 GPUs fits on no node
    JsonNode second = post("filter", filter("second", QUEUE_LABEL, 3));
    assertThat(second.get("NodeNames")).isEmpty();
    assertThat(second.get("FailedAndUnresolvableNodes").get("node-0").asText())
        .isEqualTo(second.get("FailedAndUnresolvableNodes").get("node-1").asText())
        .isEqualTo(
            "Resources were not found for pod default/second due to: no nodes with enough"
                + " resources were found: 2 node(s) didn't have enough resources: GPUs.");
  }

  @Test
  void aPodThatFitsNowhereFailsOnEveryNodeWithTheEnginesReason() throws Exception {
    JsonNode r = post("filter", filter("huge", QUEUE_LABEL, 8));

    assertThat(r.get("NodeNames")).isEmpty();
    assertThat(r.get("FailedNodes").size()).isZero();
    assertThat(r.get("FailedAndUnresolvableNodes").get("node-0").asText())
        .isEqualTo(r.get("FailedAndUnresolvableNodes").get("node-1").asText())
        .isEqualTo(
            "Resources were not found for pod default/huge due to: no nodes with enough"
                + " resources were found: 2 node(s) didn't have enough resources: GPUs.");
  }

  @Test
  void aPodWhoseOwnerIsNotInTheFileWaitsAsThePodgrouperLeavesIt() throws Exception {
    String owned =
        QUEUE_LABEL
            + ",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
            + "\"name\":\"web-5d4\",\"uid\":\"rs\",\"controller\":true}]";
    JsonNode r = post("filter", filter("web-5d4-x", owned, 1));

    String message =
        "Pod default/web-5d4-x cannot be grouped: owner ReplicaSet default/web-5d4 is not in the"
            + " cluster the extender holds in memory";
    assertThat(r.get("NodeNames")).isEmpty();
    assertThat(r.get("FailedAndUnresolvableNodes").get("node-0").asText()).isEqualTo(message);
    assertThat(r.get("FailedAndUnresolvableNodes").get("node-1").asText()).isEqualTo(message);
  }

  @Test
  void aPodWithoutAQueueLabelIsLeftToKubeSchedulerOnEveryNode() throws Exception {
    JsonNode r = post("filter", filter("plain", "", 8));

    assertThat(r.get("NodeNames")).hasSize(2);
    assertThat(r.get("FailedAndUnresolvableNodes").size()).isZero();
  }

  @Test
  void aPodOfAnotherSchedulerIsLeftAlone() throws Exception {
    JsonNode r =
        post(
            "filter",
            filter("other", QUEUE_LABEL, 8).replace("default-scheduler", "another-scheduler"));

    assertThat(r.get("NodeNames")).hasSize(2);
  }

  @Test
  void aPodOfAQueueThatDoesNotExistWaitsWithTheReason() throws Exception {
    JsonNode r =
        post("filter", filter("lost", ",\"labels\":{\"kai.scheduler/queue\":\"ghost\"}", 1));

    assertThat(r.get("NodeNames")).isEmpty();
    assertThat(r.get("FailedAndUnresolvableNodes").get("node-0").asText())
        .isEqualTo(
            "Pod default/lost cannot be grouped: metadata.labels.kai.scheduler/queue: queue"
                + " \"ghost\" is not a queue of this scenario");
  }

  @Test
  void theExtenderProcessGroupsAPodOfARequestThatIsNotInItsScenario() throws Exception {
    Path file = dir.resolve("process.yaml");
    Files.writeString(file, SCENARIO);
    try (GantryProcess gantry =
        GantryProcess.start(dir, "extender", "--scenario", file.toString(), "--port", "0")) {
      int port =
          Integer.parseInt(
              gantry.awaitStdout(Pattern.compile("on :(\\d+) "), Duration.ofSeconds(60)));

      JsonNode r = post(port, "filter", filter("solo", QUEUE_LABEL, 2));

      assertThat(r.get("NodeNames").toString()).isEqualTo("[\"node-1\"]");
      assertThat(gantry.terminate(Duration.ofSeconds(30))).isZero();
      assertThat(gantry.stderr())
          .contains("grouped pod default/solo of a request into PodGroup" + " pg-solo-uid-solo");
    }
  }

  private JsonNode post(String verb, String body) throws Exception {
    return post(extender.port(), verb, body);
  }

  private static JsonNode post(int port, String verb, String body) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/gantry/" + verb))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }
}
