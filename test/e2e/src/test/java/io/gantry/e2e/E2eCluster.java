package io.gantry.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.ApiAccessLog;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.access.ApiRule;
import io.gantry.scheduler.kube.access.SchedulerApiAccess;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * A fake cluster for end-to-end tests: the fake API server and kubelet, objects created over real
 * HTTP as kubectl would, and schedulers started against the server's URL with their own clients.
 */
final class E2eCluster implements AutoCloseable {
  final FakeKubeServer kube;
  final FakeKubelet kubelet;
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<KubeScheduler> schedulers = new ArrayList<>();

  E2eCluster() {
    this.kube = FakeKubeServer.start();
    this.kubelet = FakeKubelet.start(kube);
  }

  void node(FakeNode node) {
    kubelet.registerNode(node);
  }

  /** POSTs a namespaced or cluster object to its collection; it must be created (201). */
  void create(ObjectNode object) {
    String path = collection(object);
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(kube.url() + path))
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          Json.write(object), StandardCharsets.UTF_8))
                  .build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(201);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String collection(ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText();
    String kind = object.path("kind").asText();
    String ns = object.path("metadata").path("namespace").asText("");
    String prefix = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
    String plural =
        switch (kind) {
          case "Pod" -> "pods";
          case "Queue" -> "queues";
          case "PodGroup" -> "podgroups";
          case "PriorityClass" -> "priorityclasses";
          case "Job" -> "jobs";
          case "DeviceClass" -> "deviceclasses";
          case "ResourceSlice" -> "resourceslices";
          case "ResourceClaim" -> "resourceclaims";
          case "ResourceClaimTemplate" -> "resourceclaimtemplates";
          default -> throw new IllegalArgumentException(kind);
        };
    return prefix + (ns.isEmpty() ? "" : "/namespaces/" + ns) + "/" + plural;
  }

  KubeScheduler scheduler(SchedulerSettings settings) {
    KubeScheduler s =
        KubeScheduler.start(KubeClients.forUrl(kube.url()), settings, Clock.systemUTC());
    schedulers.add(s);
    return s;
  }

  JsonNode pod(String namespace, String name) {
    return kube.store().get(ResourceKinds.PODS, namespace, name).orElseThrow();
  }

  List<JsonNode> pods(String namespace) {
    return new ArrayList<>(kube.store().list(ResourceKinds.PODS, namespace));
  }

  long boundPods(String namespace) {
    return pods(namespace).stream().filter(p -> !p.at("/spec/nodeName").asText().isEmpty()).count();
  }

  /** POSTs to pods/binding over all namespaces, as the fake counted them. */
  long bindings() {
    return kube.requests().snapshot().entrySet().stream()
        .filter(e -> e.getKey().verb().equals("create") && e.getKey().path().endsWith("/binding"))
        .mapToLong(e -> e.getValue())
        .sum();
  }

  /** POSTs to this pod's binding subresource. */
  int bindings(String namespace, String pod) {
    return kube.requests()
        .count("create", "/api/v1/namespaces/" + namespace + "/pods/" + pod + "/binding");
  }

  /**
   * Stops everything, then checks that every call Gantry made (its {@code User-Agent}) is one the
   * chart grants: {@link SchedulerApiAccess} lists them, and the chart tests check the chart
   * against that list. So a new call without its RBAC rule fails every end-to-end test that makes
   * it.
   */
  @Override
  public void close() {
    for (KubeScheduler s : schedulers) {
      s.close();
    }
    kubelet.close();
    kube.close();
    if (!schedulers.isEmpty()) {
      assertThat(kube.accesses().byUserAgentPrefix(KubeClients.USER_AGENT))
          .as("the scheduler's calls, told apart by their User-Agent")
          .isNotEmpty();
    }
    assertThat(ungranted(kube.accesses(), SchedulerApiAccess.RULES))
        .as("calls Gantry made that SchedulerApiAccess does not list (the chart would refuse them)")
        .isEmpty();
  }

  /** Gantry's accesses that no rule allows, as {@code "group resource verb"}. */
  static List<String> ungranted(ApiAccessLog log, List<ApiRule> rules) {
    return log.byUserAgentPrefix(KubeClients.USER_AGENT).stream()
        .filter(a -> rules.stream().noneMatch(r -> r.allows(a.group(), a.resource(), a.verb())))
        .map(a -> (a.group().isEmpty() ? "core" : a.group()) + " " + a.resource() + " " + a.verb())
        .toList();
  }
}
