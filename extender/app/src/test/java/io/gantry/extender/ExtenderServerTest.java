package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ExtenderServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BYTES = 64 * 1024;

  /** A 2-pod gang of 4-GPU workers; with {@link #FILTER}, shared with {@link ExtenderTlsTest}. */
  static final String GANG =
      """
      - name: gang
        queue: team-a
        priorityClass: train
        minMember: 2
        tasks: [{name: worker, replicas: 2, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 4}}]
      """;

  static final String FILTER =
      """
      {"Pod":{"metadata":{"name":"gang-worker-0","namespace":"default","uid":"u0"},"spec":{}},
       "Nodes":null,"NodeNames":["node-0","node-1","node-2"]}""";

  private Scenarios.Served served;
  private ExtenderServer server;

  @BeforeEach
  void start() throws Exception {
    ExtenderSettings settings =
        new ExtenderSettings(
            ExtenderSettings.DEFAULT_RESERVATION_TTL,
            ExtenderSettings.DEFAULT_HTTP_TIMEOUT,
            true,
            MAX_BYTES,
            Duration.ofMillis(300),
            0);
    served =
        Scenarios.serve(
            Scenarios.cluster(3, 4, GANG),
            settings,
            new TestClock(Instant.parse("2026-01-01T00:00:00Z")));
    server =
        ExtenderServer.start(
            served.extender(),
            AdmissionWebhook.defaults(served.cluster()),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterEach
  void stop() {
    server.close();
    served.extender().close();
  }

  private JsonNode post(String verb, String body) throws Exception {
    return JSON.readTree(postRaw(verb, body));
  }

  @Test
  void filterAnswersWithGosKeysAndNullForUnsetFields() throws Exception {
    JsonNode r = post("filter", FILTER);
    assertThat(r.fieldNames())
        .toIterable()
        .containsExactly(
            "Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error");
    assertThat(r.get("Nodes").isNull()).isTrue();
    assertThat(r.get("NodeNames")).hasSize(1);
    String planned = r.get("NodeNames").get(0).asText();
    // the nodes that are not planned are left out: kube-scheduler drops them
    assertThat(r.get("FailedAndUnresolvableNodes").isObject()).isTrue();
    assertThat(r.get("FailedAndUnresolvableNodes").size()).isZero();
    assertThat(r.get("FailedNodes").size()).isZero();
    assertThat(planned).startsWith("node-");
    assertThat(r.get("Error").asText()).isEmpty();

    JsonNode scores = post("prioritize", FILTER);
    // only the planned node is named; kube-scheduler scores the others 0
    assertThat(scores).hasSize(1);
    assertThat(scores.get(0).get("Host").asText()).isEqualTo(planned);
    assertThat(scores.get(0).get("Score").asLong()).isEqualTo(10);
  }

  private String postRaw(String verb, String body) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/gantry/" + verb))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  private static String binding(String pod, String node) {
    return "{\"PodName\":\""
        + pod
        + "\",\"PodNamespace\":\"default\",\"PodUID\":\"u\",\"Node\":\""
        + node
        + "\"}";
  }

  @Test
  void bindAnswersAnEmptyErrorWhenBoundAndTheReasonWhenNot() throws Exception {
    String planned = post("filter", FILTER).get("NodeNames").get(0).asText();
    String other = planned.equals("node-0") ? "node-1" : "node-0";
    assertThat(postRaw("bind", binding("gang-worker-0", other)))
        .isEqualTo(
            "{\"Error\":\"pod default/gang-worker-0 is reserved on node "
                + planned
                + ", not on node "
                + other
                + "\"}");

    String second =
        post("filter", FILTER.replace("gang-worker-0", "gang-worker-1"))
            .get("NodeNames")
            .get(0)
            .asText();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<String> first = pool.submit(() -> postRaw("bind", binding("gang-worker-0", planned)));
      assertThat(postRaw("bind", binding("gang-worker-1", second))).isEqualTo("{\"Error\":\"\"}");
      assertThat(first.get()).isEqualTo("{\"Error\":\"\"}");
    } finally {
      pool.shutdownNow();
    }
    assertThat(served.cluster().bindings())
        .containsOnlyKeys("default/gang-worker-0", "default/gang-worker-1");
  }

  @Test
  void filterWithNodeObjectsReturnsTheReceivedObjects() throws Exception {
    String body =
        """
        {"pod":{"metadata":{"name":"gang-worker-0"}},"NodeNames":null,"Nodes":{"items":[
          {"metadata":{"name":"node-0","labels":{"a":"b"}}},{"metadata":{"name":"node-1"}},{"metadata":{"name":"node-2"}}]},
         "SomethingNew":42}""";
    JsonNode r = post("filter", body);
    assertThat(r.get("NodeNames").isNull()).isTrue();
    assertThat(r.get("Nodes").get("items")).hasSize(1);
    JsonNode kept = r.get("Nodes").get("items").get(0);
    if (kept.path("metadata").path("name").asText().equals("node-0")) {
      assertThat(kept.path("metadata").path("labels").path("a").asText()).isEqualTo("b");
    }
  }

  @Test
  void aMistypedFieldIsA400NamingIt() throws Exception {
    RawHttp.Answer a =
        RawHttp.send(
            server.port(),
            RawHttp.post(
                "/filter", "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNames\":[\"a\",7]}"));
    assertThat(a.status()).isEqualTo(400);
    assertThat(JSON.readTree(a.body()).get("Error").asText())
        .isEqualTo("NodeNames[1]: expected a string");
    RawHttp.Answer bind =
        RawHttp.send(
            server.port(), RawHttp.post("/bind", "{\"PodName\":\"p\",\"PodNamespace\":\"d\"}"));
    assertThat(bind.status()).isEqualTo(400);
    assertThat(JSON.readTree(bind.body()).get("Error").asText())
        .isEqualTo("Node: expected a string");
  }

  @Test
  void aBody30kLevelsDeepIsA400NamingTheDepthLimitAndTheServerKeepsServing() throws Exception {
    // as deep as this test's 64 KiB request limit allows
    String deep = "{\"Pod\":" + "[".repeat(30_000) + "]".repeat(30_000) + "}";
    for (String verb : List.of("/filter", "/bind", "/admit")) {
      RawHttp.Answer a = RawHttp.send(server.port(), RawHttp.post(verb, deep));
      assertThat(a.status()).as(verb).isEqualTo(400);
      assertThat(JSON.readTree(a.body()).get("Error").asText())
          .as(verb)
          .isEqualTo(
              "request body: objects and arrays nest more than 64 levels deep, the limit for a"
                  + " request");
    }
    assertThat(post("/filter", FILTER).get("NodeNames")).isNotEmpty();
  }

  /** 10,000 malformed, mistyped, oversized and truncated requests; then a valid filter. */
  @Test
  void everyMalformedRequestGetsAnErrorStatusAndTheServerKeepsServing() throws Exception {
    Random random = new Random(20261201);
    List<byte[]> requests = new ArrayList<>();
    List<Integer> expected = new ArrayList<>();
    byte[] valid = FILTER.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 10_000; i++) {
      int kind = i % 10;
      switch (kind) {
        case 0, 1 -> {
          // the body cut short, Content-Length matching what was sent
          int cut = random.nextInt(valid.length - 1);
          byte[] body = java.util.Arrays.copyOf(valid, cut);
          requests.add(RawHttp.post("/filter", body, body.length));
          expected.add(400);
        }
        case 2, 3 -> {
          // a control character somewhere: never valid JSON
          byte[] body = new byte[valid.length + 1];
          int at = random.nextInt(valid.length);
          System.arraycopy(valid, 0, body, 0, at);
          body[at] = (byte) (1 + random.nextInt(8));
          System.arraycopy(valid, at, body, at + 1, valid.length - at);
          requests.add(RawHttp.post(i % 2 == 0 ? "/filter" : "/prioritize", body, body.length));
          expected.add(400);
        }
        case 4 -> {
          String[] wrong = {"5", "\"n\"", "{}", "[1]", "[null]", "true"};
          String body =
              FILTER.replace(
                  "[\"node-0\",\"node-1\",\"node-2\"]", wrong[random.nextInt(wrong.length)]);
          byte[] b = body.getBytes(StandardCharsets.UTF_8);
          requests.add(RawHttp.post("/filter", b, b.length));
          expected.add(400);
        }
        case 5 -> {
          String[] bodies = {
            "{}",
            "[]",
            "null",
            "{\"Pod\":5}",
            "{\"Pod\":{\"metadata\":{}}}",
            "{\"Pod\":{\"metadata\":{\"name\":\"\"}},\"NodeNames\":[]}",
            "{\"PodName\":\"p\",\"Node\":7}",
            "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNameToMetaVictims\":[]}"
          };
          String[] paths = {"/filter", "/prioritize", "/bind", "/preempt"};
          int pick = random.nextInt(bodies.length);
          String path =
              pick == 6 ? "/bind" : pick == 7 ? "/preempt" : paths[random.nextInt(paths.length)];
          byte[] b = bodies[pick].getBytes(StandardCharsets.UTF_8);
          requests.add(RawHttp.post(path, b, b.length));
          expected.add(400);
        }
        case 6 -> {
          // not HTTP at all
          byte[] junk = new byte[1 + random.nextInt(60)];
          for (int k = 0; k < junk.length; k++) {
            junk[k] = (byte) ('!' + random.nextInt(90));
          }
          byte[] req = new byte[junk.length + 4];
          System.arraycopy(junk, 0, req, 0, junk.length);
          System.arraycopy("\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0, req, junk.length, 4);
          requests.add(req);
          expected.add(400);
        }
        case 7 -> {
          // a header line without a colon
          requests.add(
              "POST /filter HTTP/1.1\r\nHost: x\r\nthis is not a header\r\nContent-Length: 2\r\n\r\n{}"
                  .getBytes(StandardCharsets.US_ASCII));
          expected.add(400);
        }
        case 8 -> {
          // a body over the limit, announced
          requests.add(RawHttp.post("/filter", new byte[0], MAX_BYTES + 1 + random.nextInt(1000)));
          expected.add(413);
        }
        default -> {
          if (i % 100 == 9) {
            // the body never finishes arriving
            requests.add(RawHttp.post("/filter", java.util.Arrays.copyOf(valid, 20), valid.length));
            expected.add(408);
          } else {
            // a body over the limit, sent whole in chunks
            String head =
                "POST /filter HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            StringBuilder b = new StringBuilder(head);
            int chunk = 16 * 1024;
            String data = "x".repeat(chunk);
            for (int k = 0; k * chunk <= MAX_BYTES; k++) {
              b.append(Integer.toHexString(chunk)).append("\r\n").append(data).append("\r\n");
            }
            b.append("0\r\n\r\n");
            requests.add(b.toString().getBytes(StandardCharsets.US_ASCII));
            expected.add(413);
          }
        }
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<RawHttp.Answer>> answers = new ArrayList<>();
      for (byte[] r : requests) {
        answers.add(pool.submit(() -> RawHttp.send(server.port(), r)));
      }
      for (int i = 0; i < answers.size(); i++) {
        RawHttp.Answer a = answers.get(i).get();
        assertThat(a.status())
            .as(
                "request %d: %s",
                i,
                new String(
                    requests.get(i),
                    0,
                    Math.min(120, requests.get(i).length),
                    StandardCharsets.ISO_8859_1))
            .isEqualTo(expected.get(i));
        assertThat(JSON.readTree(a.body()).get("Error").asText()).isNotEmpty();
      }
    } finally {
      pool.shutdownNow();
    }
    JsonNode r = post("filter", FILTER);
    assertThat(r.get("NodeNames")).hasSize(1);
    assertThat(r.get("Error").asText()).isEmpty();
  }
}
