package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lists and watches are written straight from the stored objects to a chunked body; the bytes are
 * the ones the fake sent when it built each body as a whole tree first. (A watch whose last event
 * of a burst stayed in a buffer would hang here; the class timeout turns that into a failure.)
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamingTest {
  private static final int PODS = 3_000;

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final Http http = new Http(kube);

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  void largeListIsStreamedChunkedWithTheBodyOfAWholeTree() {
    createPods(PODS);

    HttpResponse<String> response = http.get("/api/v1/pods");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("transfer-encoding")).contains("chunked");
    assertThat(response.headers().firstValue("content-length")).isEmpty();
    List<ObjectNode> pods = kube.store().list(ResourceKinds.PODS, "");
    assertThat(pods).hasSize(PODS);
    assertThat(response.body())
        .isEqualTo(
            wholeTreeList("PodList", kube.store().resourceVersion(), pods, Optional.empty(), 0));
  }

  @Test
  void pagesOfALargeListCarryTheContinueTokenAndRemainingCountOfAWholeTree() {
    createPods(PODS);
    List<ObjectNode> all = kube.store().list(ResourceKinds.PODS, "ns-1");
    int limit = 400;

    List<String> bodies = new ArrayList<>();
    String path = "/api/v1/namespaces/ns-1/pods?limit=" + limit;
    Optional<String> token = Optional.empty();
    do {
      String body = http.get(path + token.map(t -> "&continue=" + t).orElse("")).body();
      bodies.add(body);
      token = Json.text(Json.parseObject(body), "metadata.continue");
    } while (token.isPresent());

    List<String> expected = new ArrayList<>();
    for (int start = 0; start < all.size(); start += limit) {
      int end = Math.min(all.size(), start + limit);
      Optional<String> next =
          end < all.size() ? Optional.of(token(all.get(end - 1))) : Optional.empty();
      expected.add(
          wholeTreeList(
              "PodList",
              kube.store().resourceVersion(),
              all.subList(start, end),
              next,
              all.size() - end));
    }
    assertThat(all).hasSize(PODS / 3);
    assertThat(bodies).hasSize(3).containsExactlyElementsOf(expected);
  }

  @Test
  void aBadContinueTokenOrLimitIsA400StatusNotABrokenStream() {
    createPods(3);

    HttpResponse<String> badToken = http.get("/api/v1/pods?limit=1&continue=*not-base64*");
    HttpResponse<String> badLimit = http.get("/api/v1/pods?limit=many");

    assertThat(badToken.statusCode()).isEqualTo(400);
    assertThat(Json.text(Http.json(badToken), "message"))
        .contains("continue key is not valid: *not-base64*");
    assertThat(badLimit.statusCode()).isEqualTo(400);
    assertThat(Json.text(Http.json(badLimit), "message")).contains("invalid integer \"many\"");
  }

  @Test
  void watchWritesEachEventAsOneLineOfAWholeTreeAndABurstArrivesInFull() {
    createPods(PODS);
    HttpResponse<Stream<String>> response = http.lines("/api/v1/namespaces/ns-0/pods?watch=true");
    Iterator<String> lines = response.body().iterator();

    List<String> received = new ArrayList<>();
    for (int i = 0; i < PODS / 3; i++) {
      received.add(lines.next());
    }
    createPods(1_000, "burst-");
    for (int i = 0; i < 1_000; i++) {
      received.add(lines.next());
    }

    List<String> expected = new ArrayList<>();
    for (ObjectNode pod : kube.store().list(ResourceKinds.PODS, "ns-0")) {
      if (!Json.name(pod).startsWith("burst-")) {
        expected.add(wholeTreeLine("ADDED", pod));
      }
    }
    for (int i = 0; i < 1_000; i++) {
      expected.add(
          wholeTreeLine(
              "ADDED", kube.store().get(ResourceKinds.PODS, "ns-0", "burst-" + i).orElseThrow()));
    }
    assertThat(received).containsExactlyElementsOf(expected);
  }

  /** Pods spread over namespaces ns-0, ns-1, ns-2, each with a label that makes it a few 100 B. */
  private void createPods(int count) {
    for (int i = 0; i < count; i++) {
      createPod("ns-" + (i % 3), "pod-" + i);
    }
  }

  /** Pods all in ns-0, named prefix and a number. */
  private void createPods(int count, String prefix) {
    for (int i = 0; i < count; i++) {
      createPod("ns-0", prefix + i);
    }
  }

  private void createPod(String namespace, String name) {
    ObjectNode pod = Json.object();
    pod.put("apiVersion", "v1");
    pod.put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    meta.putObject("labels").put("app", "streaming-" + name + "-é");
    pod.putObject("spec").putArray("containers").addObject().put("name", "main").put("image", "x");
    kube.store().create(pod);
  }

  /** A list body as the fake wrote it before streaming: one tree, written at once. */
  private String wholeTreeList(
      String listKind,
      long resourceVersion,
      List<ObjectNode> items,
      Optional<String> continueToken,
      int remainingItemCount) {
    ObjectNode json = Json.object();
    json.put("kind", listKind);
    json.put("apiVersion", "v1");
    ObjectNode meta = json.putObject("metadata");
    meta.put("resourceVersion", Long.toString(resourceVersion));
    if (continueToken.isPresent()) {
      meta.put("continue", continueToken.get());
      meta.put("remainingItemCount", remainingItemCount);
    }
    json.putArray("items").addAll(items);
    return Json.write(json);
  }

  /** A watch line as the fake wrote it before streaming. */
  private static String wholeTreeLine(String type, ObjectNode object) {
    ObjectNode line = Json.object();
    line.put("type", type);
    line.set("object", object);
    return Json.write(line);
  }

  private static String token(ObjectNode last) {
    String key = Json.namespace(last) + "\u0000" + Json.name(last);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(key.getBytes(StandardCharsets.UTF_8));
  }
}
