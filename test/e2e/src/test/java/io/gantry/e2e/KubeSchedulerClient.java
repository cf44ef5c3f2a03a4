package io.gantry.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Plays kube-scheduler against an extender with {@code nodeCacheCapable: true}: per pod, {@code
 * filter} over every node, {@code prioritize} over the nodes that passed, then {@code bind} to the
 * best one, asynchronously, as kube-scheduler's binding cycle does; the next pod's scheduling cycle
 * does not wait for it.
 */
final class KubeSchedulerClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String urlPrefix;
  private final List<String> nodes;
  private final HttpClient http = HttpClient.newHttpClient();

  /** What happened to one pod: the filter answer, and the bind's error ("" when bound). */
  record Attempt(JsonNode filter, CompletableFuture<String> bind) {}

  KubeSchedulerClient(String urlPrefix, List<String> nodes) {
    this.urlPrefix = urlPrefix;
    this.nodes = nodes;
  }

  /** One scheduling cycle for {@code pod} (its API object); the bind runs on. */
  Attempt schedule(JsonNode pod) throws IOException, InterruptedException {
    ObjectNode args = JSON.createObjectNode();
    args.set("Pod", pod);
    args.putNull("Nodes");
    ArrayNode names = args.putArray("NodeNames");
    nodes.forEach(names::add);
    JsonNode filtered = post("filter", args);
    JsonNode passing = filtered.get("NodeNames");
    if (passing == null || passing.isNull() || passing.isEmpty()) {
      return new Attempt(filtered, CompletableFuture.completedFuture("unschedulable"));
    }
    args.set("NodeNames", passing);
    JsonNode scores = post("prioritize", args);
    // as kube-scheduler: a passing node the answer leaves out scores 0
    String best = passing.get(0).asText();
    long bestScore = 0;
    for (JsonNode s : scores) {
      if (s.get("Score").asLong() > bestScore) {
        best = s.get("Host").asText();
        bestScore = s.get("Score").asLong();
      }
    }
    ObjectNode bind = JSON.createObjectNode();
    bind.put("PodName", pod.at("/metadata/name").asText());
    bind.put("PodNamespace", pod.at("/metadata/namespace").asText());
    bind.put("PodUID", pod.at("/metadata/uid").asText());
    bind.put("Node", best);
    CompletableFuture<String> bound =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return post("bind", bind).get("Error").asText();
              } catch (IOException e) {
                return e.toString();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return e.toString();
              }
            });
    return new Attempt(filtered, bound);
  }

  private JsonNode post(String verb, JsonNode body) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(urlPrefix + "/" + verb))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(r.statusCode()).as(verb + " " + r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }
}
